// The nesting limit for payloads the gateway takes in (issue path-fidelity, item 4): a client's params, a
// breakpoint's edit or mock, a backend's answer, request or notification and a client's answer to one
// (src/main/gateway/wire/deep-messages.ts). Everything that walks a payload afterwards (the chain's clone and comparison,
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

/**
 * Levels a backend's result or notification may nest and still be relayed unchanged when nothing on the
 * gateway inspects it (no interceptor, no breakpoint on its method): sending it means one JSON.stringify,
 * which runs out of stack at about 4,100 levels; 3,000 leaves room for the stack in use when it is sent.
 */
export const MAX_RELAY_DEPTH = 3_000;

/** The part of a JSON-RPC message the limits apply to: a request's or notification's params, a response's result or error. */
export function payloadOf(message: object): unknown {
  const m = message as { params?: unknown; result?: unknown; error?: unknown };
  if ('method' in m) return m.params;
  return 'result' in m ? m.result : m.error;
}

/** Whether a JSON-RPC message's payload nests deeper than `limit` levels (MAX_PAYLOAD_DEPTH by default). */
export function messageNestedDeeperThan(message: object, limit = MAX_PAYLOAD_DEPTH): boolean {
  return nestedDeeperThan(payloadOf(message), limit);
}

/** The error a refused payload gets: what was too deep, the limit, and what to do instead. */
export function tooDeepMessage(what: string, limit = MAX_PAYLOAD_DEPTH): string {
  return `${what} nested too deeply: more than ${limit} levels of objects and arrays, which the gateway does not take (its interceptor chain and recorder could not handle it); send a flatter structure`;
}

/** Levels of a too-deep payload kept where it is recorded (the rest is replaced by a note). */
export const RECORD_DEPTH = 64;

/** A copy of `value` cut at `depth` levels, for the record of a payload the gateway refused as too deep. */
export function depthLimited(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth <= 0) return `[nested deeper than this: not recorded]`;
  if (Array.isArray(value)) return value.map((v) => depthLimited(v, depth - 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = depthLimited(v, depth - 1);
  return out;
}
