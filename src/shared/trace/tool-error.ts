// A tools/call whose tool answered `isError: true` (MCP's "the tool ran and failed", a result, not a JSON-RPC
// error). The chain's outcome stays what the chain decided (allowed, mutated): this is shown beside it, and
// derived from the stored response when read, so every history already recorded (SQLite or PostgreSQL)
// shows it without a migration.

export const TOOL_ERROR_EVENT = 'tools/call';

export function isToolErrorResult(event: string, response: unknown): boolean {
  return event === TOOL_ERROR_EVENT && typeof response === 'object' && response !== null && (response as { isError?: unknown }).isError === true;
}
