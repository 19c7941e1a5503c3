// The messages a client session is still sending: a closing session waits for them (its rejections of the
// server's pending requests) before it closes the transport.
import type { Transport } from '@modelcontextprotocol/client';

/** How long a closing session waits for its last answers (rejections of pending requests) to reach the server. */
const FLUSH_TIMEOUT_MS = 2_000;

/** Wraps the transport's send to know which messages are still on their way. */
export function trackSends(transport: Transport): Set<Promise<void>> {
  const sends = new Set<Promise<void>>();
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const p = send(message, options);
    sends.add(p);
    const done = () => void sends.delete(p);
    p.then(done, done);
    return p;
  };
  return sends;
}

/** Lets the request handlers send the rejections just made (a few turns of the event loop), then waits for them to go out. */
export async function flush(sends: Set<Promise<void>>): Promise<void> {
  const deadline = Date.now() + FLUSH_TIMEOUT_MS;
  for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
  while (sends.size > 0 && Date.now() < deadline) {
    await Promise.race([Promise.allSettled([...sends]), new Promise((resolve) => setTimeout(resolve, deadline - Date.now()))]);
  }
}
