// SSE resumption (SEP-1699) for the gateway's own 2025-era HTTP sessions: every event the gateway writes to
// a client's stream gets an id, and a client whose stream dropped reconnects with Last-Event-ID and is sent
// what it missed. Bounded per session: a client that stays away past the last EVENT_LIMIT events of its
// session misses the oldest ones (its request then ends by the backend's or the client's own timeout).
import type { EventStore } from '@modelcontextprotocol/server';

const EVENT_LIMIT = 1000;

export function sessionEventStore(): EventStore {
  const events = new Map<string, { streamId: string; message: unknown }>();
  let seq = 0;
  return {
    async storeEvent(streamId, message) {
      // Zero-padded so that ids of one stream compare in the order they were written.
      const eventId = `${streamId}::${String(++seq).padStart(12, '0')}`;
      events.set(eventId, { streamId, message });
      if (events.size > EVENT_LIMIT) events.delete(events.keys().next().value!);
      return eventId;
    },
    async getStreamIdForEventId(eventId) {
      return events.get(eventId)?.streamId ?? (eventId.includes('::') ? eventId.slice(0, eventId.lastIndexOf('::')) : undefined);
    },
    async replayEventsAfter(lastEventId, { send }) {
      const streamId = lastEventId.slice(0, lastEventId.lastIndexOf('::'));
      for (const [eventId, e] of [...events]) {
        if (e.streamId === streamId && eventId > lastEventId) await send(eventId, e.message as Parameters<typeof send>[1]);
      }
      return streamId;
    },
  };
}
