// The session's client side under message capture: every message the session writes to its client passes
// the tap, right after it is handed to the client: the capture's work then follows the write instead of
// delaying it (no sink calls back into the session synchronously, so the capture's order is unchanged).
// Without a tap the client sink is returned as it is (nothing added to the hot path).
import type { ClientSink } from './host';
import type { SessionTap } from '../record/message-capture';

export function tapClientSink(client: ClientSink, tap: SessionTap | undefined): ClientSink {
  if (!tap) return client;
  const tapped: ClientSink = {
    send(message, relatedRequestId) {
      let text: string | void = undefined;
      try {
        text = client.send(message, relatedRequestId);
      } finally {
        tap.toClient(message, typeof text === 'string' ? text : undefined);
      }
      return text;
    },
  };
  if (client.closeStream) tapped.closeStream = (id) => client.closeStream!(id);
  return tapped;
}
