// One pipe write per event-loop turn on an interceptor connection's stdio. A chain invokes a phase's
// validators (and its sinks) in parallel, and a host answers them as they finish: written one by one,
// every message is a write(2) that wakes the process at the other end, and on a virtual machine a wake-up
// costs about as much as the rest of a small invoke (~40 µs per write seen in a profile of the samples
// path). Corking the stream at the first message of a turn and uncorking it once the turn's work is done
// (setImmediate) sends them all in one writev: same bytes, same order, one wake-up.
import type { Writable } from 'node:stream';

interface Sender {
  send(message: never, options?: never): Promise<void>;
}

/**
 * Wraps `transport.send` so that what is sent in one turn reaches `stream()` (the pipe it writes to) in
 * one write. `stream` is read at each send: a process's stdin exists only once the transport started.
 */
export function coalesceWrites<T extends Sender>(transport: T, stream: () => Writable | null | undefined): T {
  const send = transport.send.bind(transport) as T['send'];
  let corked = false;
  transport.send = ((message: never, options?: never) => {
    const s = stream();
    if (s && !corked && !s.destroyed) {
      corked = true;
      s.cork();
      setImmediate(() => {
        corked = false;
        s.uncork();
      });
    }
    return send(message, options);
  }) as T['send'];
  return transport;
}
