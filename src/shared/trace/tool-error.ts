// A tools/call whose tool answered `isError: true` (MCP's "the tool ran and failed", a result, not a JSON-RPC
// error). The chain's outcome stays what the chain decided (allowed, mutated): this is shown beside it, and
// derived from the stored response when read, so every history already recorded (SQLite or PostgreSQL)
// shows it without a migration.

export const TOOL_ERROR_EVENT = 'tools/call';

/**
 * Whether an execution's detail shows the "tool error" badge: only where the chain let the call through
 * (the stores' list queries read only 'allow' and 'mutated' rows for the same reason). A blocked call's
 * answer says isError too, but it is the gateway's refusal: the tool never ran.
 */
export function showsToolError(e: { event: string; outcome: string; responseReturned?: unknown }): boolean {
  return (e.outcome === 'allow' || e.outcome === 'mutated') && isToolErrorResult(e.event, e.responseReturned);
}

export function isToolErrorResult(event: string, response: unknown): boolean {
  return event === TOOL_ERROR_EVENT && typeof response === 'object' && response !== null && (response as { isError?: unknown }).isError === true;
}
