// RFC 6570 URI templates as MCP resource templates use them: the variables a template names (one input
// each in the Client tab) and the URI it expands to once they are filled. Shared so the renderer needs no
// SDK; level 3 (operators, several variables per expression), without the prefix and explode modifiers'
// list and map values, since a form fills each variable with one string.

/** Per operator: what starts the expansion, what joins its variables, and whether reserved characters stay. */
const OPERATORS: Record<string, { first: string; sep: string; named: boolean; ifEmpty: string; reserved: boolean }> = {
  '': { first: '', sep: ',', named: false, ifEmpty: '', reserved: false },
  '+': { first: '', sep: ',', named: false, ifEmpty: '', reserved: true },
  '#': { first: '#', sep: ',', named: false, ifEmpty: '', reserved: true },
  '.': { first: '.', sep: '.', named: false, ifEmpty: '', reserved: false },
  '/': { first: '/', sep: '/', named: false, ifEmpty: '', reserved: false },
  ';': { first: ';', sep: ';', named: true, ifEmpty: '', reserved: false },
  '?': { first: '?', sep: '&', named: true, ifEmpty: '=', reserved: false },
  '&': { first: '&', sep: '&', named: true, ifEmpty: '=', reserved: false },
};

const EXPRESSION = /\{([+#./;?&]?)([^{}]*)\}/g;

interface VariableSpec {
  name: string;
  prefix?: number;
}

function specs(list: string): VariableSpec[] {
  return list
    .split(',')
    .map((v) => v.trim().replace(/\*$/, ''))
    .filter(Boolean)
    .map((v) => {
      const [name = '', prefix] = v.split(':');
      return prefix && /^\d+$/.test(prefix) ? { name, prefix: Number(prefix) } : { name };
    });
}

/** The variables of a template, in order of first appearance, each once. */
export function templateVariables(template: string): string[] {
  const names = new Set<string>();
  for (const m of template.matchAll(EXPRESSION)) for (const s of specs(m[2] ?? '')) names.add(s.name);
  return [...names];
}

function encode(value: string, reserved: boolean): string {
  // Reserved expansion keeps the URI's own delimiters (/, ?, #, …); simple expansion escapes them too.
  return reserved
    ? encodeURI(value).replace(/%25([0-9A-Fa-f]{2})/g, '%$1')
    : encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The URI the template names with these values; a variable left undefined is omitted, as RFC 6570 says. */
export function expandTemplate(template: string, values: Record<string, string | undefined>): string {
  return template.replace(EXPRESSION, (_whole, op: string, list: string) => {
    const o = OPERATORS[op] ?? OPERATORS['']!;
    const parts: string[] = [];
    for (const s of specs(list)) {
      const raw = values[s.name];
      if (raw === undefined) continue;
      const value = encode(s.prefix === undefined ? raw : raw.slice(0, s.prefix), o.reserved);
      parts.push(o.named ? (value === '' ? `${s.name}${o.ifEmpty}` : `${s.name}=${value}`) : value);
    }
    return parts.length ? o.first + parts.join(o.sep) : '';
  });
}
