// A tools/call whose tool answered `isError: true` (MCP's "the tool ran and failed", a result, not a JSON-RPC
// error). The chain's outcome stays what the chain decided (allowed, mutated): this is shown beside it, and
// derived from the stored response when read, so every history already recorded (SQLite or PostgreSQL)
// shows it without a migration.

export const TOOL_ERROR_EVENT = 'tools/call';

/**
 * The outcomes whose answer can be the tool's own: the chain let the call through. A blocked call's answer
 * says isError too, but it is the gateway's refusal: the tool never ran. The stores' list queries and the
 * detail read the badge only for these.
 */
export const TOOL_ERROR_OUTCOMES = ['allow', 'mutated'] as const;

/** Whether an execution's detail shows the "tool error" badge. */
export function showsToolError(e: { event: string; outcome: string; responseReturned?: unknown }): boolean {
  return (TOOL_ERROR_OUTCOMES as readonly string[]).includes(e.outcome) && isToolErrorResult(e.event, e.responseReturned);
}

export function isToolErrorResult(event: string, response: unknown): boolean {
  return event === TOOL_ERROR_EVENT && typeof response === 'object' && response !== null && (response as { isError?: unknown }).isError === true;
}
