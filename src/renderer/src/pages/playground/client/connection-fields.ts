// The Client tab's free-text connection fields ([desktop-client] item 4): environment variables for a
// command (`NAME=value` per line) and headers for a URL (`Name: value` per line). A line that is neither
// empty nor of that form is an error naming the line, never silently dropped.

function lines(text: string): { n: number; line: string }[] {
  return text
    .split(/\r?\n/)
    .map((line, i) => ({ n: i + 1, line: line.trim() }))
    .filter((l) => l.line !== '' && !l.line.startsWith('#'));
}

export function parseEnvLines(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { n, line } of lines(text)) {
    const eq = line.indexOf('=');
    const name = eq > 0 ? line.slice(0, eq).trim() : '';
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`Environment, line ${n}: write NAME=value (got "${line}")`);
    out[name] = line.slice(eq + 1);
  }
  return out;
}

export function parseHeaderLines(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { n, line } of lines(text)) {
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new Error(`Headers, line ${n}: write Name: value (got "${line}")`);
    out[name] = line.slice(colon + 1).trim();
  }
  return out;
}
