// What a server told the built-in client on its own (log messages, progress, list and resource changes):
// kept per session, newest last, at most MAX_PER_SESSION, for the Client tab's notifications pane.
export interface ClientNotification {
  /** Increasing over the app's life: the pane asks for those after the last it has. */
  seq: number;
  at: string;
  method: string;
  params?: unknown;
}

const MAX_PER_SESSION = 500;

export class ClientNotifications {
  private readonly bySession = new Map<string, ClientNotification[]>();
  private seq = 0;

  add(sessionId: string, method: string, params: unknown): void {
    let list = this.bySession.get(sessionId);
    if (!list) {
      list = [];
      this.bySession.set(sessionId, list);
    }
    list.push({ seq: ++this.seq, at: new Date().toISOString(), method, ...(params !== undefined ? { params } : {}) });
    if (list.length > MAX_PER_SESSION) list.splice(0, list.length - MAX_PER_SESSION);
  }

  list(sessionId: string, after = 0): ClientNotification[] {
    return (this.bySession.get(sessionId) ?? []).filter((n) => n.seq > after);
  }

  drop(sessionId: string): void {
    this.bySession.delete(sessionId);
  }
}
