// The stdio listener: one client on a pair of streams (the process's stdin/stdout when headless). stdout
// carries nothing but JSON-RPC; every log line goes elsewhere (the host's logger, stderr in the CLI).
import type { Readable, Writable } from 'node:stream';
import { LineChannel } from '../wire/line-channel';
import { GatewaySession, type SessionHost } from '../session/session';

/** How long a fresh backend must stay up for the start to count (a command that dies at once is a start error). */
const BACKEND_SETTLE_MS = 300;

export interface StdioListener {
  session: GatewaySession;
  /** `reason`: requests in flight are answered with it (a gateway stopping) and recorded. */
  close(reason?: string): Promise<void>;
}

export async function startStdioListener(
  host: SessionHost,
  io: { input: Readable; output: Writable },
  principal: string | undefined,
  maxMessageBytes: number,
  onClientGone: () => void,
): Promise<StdioListener> {
  // Spawn the backend before reading the client: a broken command fails the start with its stderr.
  const backend = host.createBackend();
  await backend.connect();
  try {
    await backend.settle(BACKEND_SETTLE_MS);
  } catch (err) {
    await backend.close();
    throw err;
  }
  const channel = new LineChannel(io.input, io.output, maxMessageBytes, { keepRawIds: true });
  const session = new GatewaySession(host, { send: (m) => channel.send(m) }, { principal, transport: 'stdio', backend });
  channel.onmessage = (m, text) => session.handleClientMessage(m, text);
  channel.oninvalid = (p) => session.handleInvalid(p);
  channel.onclose = () => onClientGone();
  return {
    session,
    async close(reason?: string) {
      channel.onclose = undefined;
      const closing = session.close(reason ? { reason, answer: true } : {});
      channel.close();
      await closing;
    },
  };
}
