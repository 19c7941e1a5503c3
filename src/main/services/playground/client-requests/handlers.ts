// What the built-in client declares and how it answers a server's requests: sampling and elicitation wait
// for the user (PendingServerRequests), roots/list is answered at once from the session's roots list.
// Declaring all three is what makes a server such as server-everything offer its tools that need them.
import type { Client } from '@modelcontextprotocol/client';
import type { ClientRoot } from '../../../../shared/api/models-client-requests';
import type { PendingServerRequests } from './pending-requests';

/**
 * The capabilities sent in initialize: sampling; elicitation in form and URL mode; roots with
 * list_changed. Not `tasks`: task-augmented server→client requests outlive the exchange a gateway's
 * chain guards, and gateways drop task support anyway.
 */
export const CLIENT_CAPABILITIES = {
  sampling: {},
  elicitation: { form: {}, url: {} },
  roots: { listChanged: true },
} as const;

export interface ServerRequestSession {
  sessionId: string;
  answerTimeoutMs: number;
  roots(): ClientRoot[];
  /** Called when the server asks for the roots (shown in the UI: the server did ask). */
  onRootsListed(): void;
}

export function installServerRequestHandlers(client: Client, pending: PendingServerRequests, session: () => ServerRequestSession): void {
  client.setRequestHandler('sampling/createMessage', async (request, ctx) => {
    const s = session();
    return pending.wait(s.sessionId, 'sampling/createMessage', plain(request.params), s.answerTimeoutMs, ctx.mcpReq.signal);
  });
  client.setRequestHandler('elicitation/create', async (request, ctx) => {
    const s = session();
    return pending.wait(s.sessionId, 'elicitation/create', plain(request.params), s.answerTimeoutMs, ctx.mcpReq.signal);
  });
  client.setRequestHandler('roots/list', () => {
    const s = session();
    s.onRootsListed();
    return { roots: s.roots().map((r) => ({ uri: r.uri, ...(r.name ? { name: r.name } : {}) })) };
  });
}

function plain(params: unknown): Record<string, unknown> {
  return { ...((params ?? {}) as Record<string, unknown>) };
}
