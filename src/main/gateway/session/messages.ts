// The session's client side under message capture: every message the session writes to its client passes
// the tap first. Without a tap the client sink is returned as it is (nothing added to the hot path).
import type { ClientSink } from './host';
import type { SessionTap } from '../record/message-capture';

export function tapClientSink(client: ClientSink, tap: SessionTap | undefined): ClientSink {
  if (!tap) return client;
  const tapped: ClientSink = {
    send(message, relatedRequestId) {
      tap.toClient(message);
      client.send(message, relatedRequestId);
    },
  };
  if (client.closeStream) tapped.closeStream = (id) => client.closeStream!(id);
  return tapped;
}
