// JSON paths as interceptors report them (`$.arguments`, `$.content[0].text`, `$['a b']`) mapped onto
// ranges of a JSON text, so a validation message can highlight the field it is about. A small parser
// that records where each value sits; it never throws on bad input (a broken text locates nothing).

export type PathSegment = string | number;

/** `$.a.b[0]["c d"]` → ['a', 'b', 0, 'c d']; undefined when it is not a path this app understands. */
export function parseJsonPath(path: string): PathSegment[] | undefined {
  const s = path.trim();
  if (!s.startsWith('$')) return undefined;
  const out: PathSegment[] = [];
  let i = 1;
  while (i < s.length) {
    const ch = s[i];
    if (ch === '.') {
      const m = /^[^.[\]]+/.exec(s.slice(i + 1));
      if (!m) return undefined;
      out.push(m[0]);
      i += 1 + m[0].length;
    } else if (ch === '[') {
      const rest = s.slice(i);
      const num = /^\[(\d+)\]/.exec(rest);
      const quoted = /^\[\s*(['"])((?:\\.|(?!\1).)*)\1\s*\]/.exec(rest);
      if (num) {
        out.push(Number(num[1]));
        i += num[0].length;
      } else if (quoted) {
        out.push(quoted[2]!.replace(/\\(.)/g, '$1'));
        i += quoted[0].length;
      } else return undefined;
    } else return undefined;
  }
  return out;
}

export interface TextRange {
  from: number;
  to: number;
}

/**
 * Where the value at `path` sits in `text` (for an object member, from its key to the end of its
 * value, so the highlight shows the name too). Undefined when the text does not parse or has no such value.
 */
export function locateJsonPath(text: string, path: PathSegment[]): TextRange | undefined {
  try {
    return new Locator(text, path).run();
  } catch {
    return undefined;
  }
}

class Locator {
  private i = 0;
  private found?: TextRange;

  constructor(
    private readonly text: string,
    private readonly target: PathSegment[],
  ) {}

  run(): TextRange | undefined {
    this.ws();
    const start = this.i;
    this.value([]);
    if (this.target.length === 0) return { from: start, to: this.i };
    return this.found;
  }

  private value(path: PathSegment[]): void {
    this.ws();
    const ch = this.text[this.i];
    if (ch === '{') this.object(path);
    else if (ch === '[') this.array(path);
    else if (ch === '"') this.string();
    else {
      const m = /^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null)/.exec(this.text.slice(this.i, this.i + 400));
      if (!m) throw new Error('bad value');
      this.i += m[0].length;
    }
  }

  private object(path: PathSegment[]): void {
    this.i++;
    this.ws();
    if (this.text[this.i] === '}') {
      this.i++;
      return;
    }
    for (;;) {
      this.ws();
      const keyStart = this.i;
      const key = this.string();
      this.ws();
      if (this.text[this.i++] !== ':') throw new Error('expected :');
      this.ws();
      const child = [...path, key];
      this.value(child);
      if (!this.found && matches(child, this.target)) this.found = { from: keyStart, to: this.i };
      this.ws();
      const sep = this.text[this.i++];
      if (sep === '}') return;
      if (sep !== ',') throw new Error('expected , or }');
    }
  }

  private array(path: PathSegment[]): void {
    this.i++;
    this.ws();
    if (this.text[this.i] === ']') {
      this.i++;
      return;
    }
    for (let index = 0; ; index++) {
      this.ws();
      const start = this.i;
      const child = [...path, index];
      this.value(child);
      if (!this.found && matches(child, this.target)) this.found = { from: start, to: this.i };
      this.ws();
      const sep = this.text[this.i++];
      if (sep === ']') return;
      if (sep !== ',') throw new Error('expected , or ]');
    }
  }

  private string(): string {
    if (this.text[this.i] !== '"') throw new Error('expected a string');
    const start = this.i;
    this.i++;
    while (this.i < this.text.length) {
      const ch = this.text[this.i];
      if (ch === '\\') this.i += 2;
      else if (ch === '"') {
        this.i++;
        return JSON.parse(this.text.slice(start, this.i)) as string;
      } else this.i++;
    }
    throw new Error('unterminated string');
  }

  private ws(): void {
    while (this.i < this.text.length && /\s/.test(this.text[this.i]!)) this.i++;
  }
}

function matches(a: PathSegment[], b: PathSegment[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
