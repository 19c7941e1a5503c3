// The nesting limit for payloads the gateway takes in (issue path-fidelity, item 4): a client's params, a
// breakpoint's edit or mock. Everything that walks a payload afterwards (the chain's clone and comparison,
// JSON.stringify towards an interceptor server, the backend or the recorder) recurses once per level, and
// runs out of stack somewhere between ~2,500 and ~4,500 levels depending on where it is called from. A
// payload deeper than that used to fail half-way (-32603, a record the recorder could not encode); one
// explicit limit well below every one of those points fails it up front, the same way every time.

/**
 * Levels of nesting a payload may have (`{}` and `[]` are one level; the params object counts). No MCP
 * client nests anywhere near this; Python's json and SQLite's JSON functions stop at about 1,000 too.
 */
export const MAX_PAYLOAD_DEPTH = 1_000;

/**
 * Whether `value` nests deeper than `limit` levels. Iterative (an explicit stack), so that the check
 * itself cannot overflow however deep the value is; it stops at the first path over the limit.
 */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  // Two parallel stacks and plain loops: this runs on every client request, so no tuple or array per node.
  const nodes: object[] = [value];
  const depths: number[] = [1];
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    if (depth > limit) return true;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const child: unknown = node[i];
        if (child !== null && typeof child === 'object') {
          nodes.push(child);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const key in node) {
        const child: unknown = (node as Record<string, unknown>)[key];
        if (child !== null && typeof child === 'object') {
          nodes.push(child);
          depths.push(depth + 1);
        }
      }
    }
  }
  return false;
}

/** The error a refused payload gets: what was too deep, the limit, and what to do instead. */
export function tooDeepMessage(what: string, limit = MAX_PAYLOAD_DEPTH): string {
  return `${what} nested too deeply: more than ${limit} levels of objects and arrays, which the gateway does not take (its interceptor chain and recorder could not handle it); send a flatter structure`;
}
