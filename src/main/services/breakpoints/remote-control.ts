// A console attached to a gateway in another process (headless, stdio or HTTP) through that gateway's
// control endpoint (src/main/gateway/breakpoints/control-server.ts): its paused calls arrive over the
// endpoint's event stream and join this console's Paused list under the attachment's name; decisions and
// breakpoints go back over HTTP with its token. A dropped stream reconnects (and is sent the open pauses
// again); detaching stops it.
import { ApiError } from '../../../shared/api/envelope';
import type { ApiEvent } from '../../../shared/api/events';
import type { Breakpoint } from '../../../shared/config/breakpoints';
import type { PauseDecision, PausedCall } from '../../../shared/trace/pauses';

const RECONNECT_MS = 1000;

export interface RemoteBreakpointsView {
  gateway: string;
  config: Breakpoint[];
  live: Breakpoint[];
}

export class RemoteControl {
  private readonly paused = new Map<string, PausedCall>();
  private readonly stop = new AbortController();
  /** Why the stream is down (shown with the attachment); undefined while it is up. */
  problem: string | undefined = 'connecting';

  constructor(
    readonly name: string,
    readonly url: string,
    private readonly token: string,
    private readonly emit: (event: ApiEvent) => void,
  ) {}

  /** Checks the endpoint and the token (a clear error if either is wrong), then follows its events. */
  async attach(): Promise<void> {
    await this.request('GET', '/breakpoints');
    void this.follow();
  }

  detach(): void {
    this.stop.abort();
    for (const id of [...this.paused.keys()]) this.drop(id, 'detached', 'console');
  }

  list(): PausedCall[] {
    return [...this.paused.values()];
  }

  async decide(id: string, decision: PauseDecision, by: string): Promise<void> {
    await this.request('POST', `/paused/${encodeURIComponent(id)}`, { decision, by });
  }

  async breakpoints(): Promise<RemoteBreakpointsView> {
    const view = (await this.request('GET', '/breakpoints')) as RemoteBreakpointsView;
    return { ...view, gateway: this.name };
  }

  async setLive(live: Breakpoint[]): Promise<RemoteBreakpointsView> {
    const view = (await this.request('PUT', '/breakpoints', { live })) as RemoteBreakpointsView;
    return { ...view, gateway: this.name };
  }

  private async request(method: string, path: string, body?: unknown): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(`${this.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${this.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(15_000),
      });
    } catch (err) {
      throw new ApiError('unavailable', `The control endpoint ${this.url} of "${this.name}" cannot be reached: ${(err as Error).message}`);
    }
    const value = (await res.json().catch(() => ({}))) as { error?: string };
    if (res.ok) return value;
    const message = `"${this.name}" (${this.url}): ${value.error ?? `HTTP ${res.status}`}`;
    if (res.status === 404) throw new ApiError('not_found', message);
    if (res.status === 400) throw new ApiError('invalid_input', message);
    throw new ApiError('failed', message);
  }

  private async follow(): Promise<void> {
    while (!this.stop.signal.aborted) {
      try {
        const res = await fetch(`${this.url}/events`, { headers: { authorization: `Bearer ${this.token}` }, signal: this.stop.signal });
        if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
        this.problem = undefined;
        // The stream starts with every open pause: what was known before is replaced by it.
        for (const id of [...this.paused.keys()]) this.drop(id, 'reconnected', 'console');
        const decoder = new TextDecoder();
        let buffer = '';
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = frame.split('\n').find((l) => l.startsWith('data: '));
            if (data) this.onEvent(JSON.parse(data.slice(6)) as { type: string; pause?: PausedCall; id?: string; record?: { decision: string; by: string } });
          }
        }
        this.problem = 'the event stream ended';
      } catch (err) {
        if (this.stop.signal.aborted) return;
        this.problem = (err as Error).message;
      }
      await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS).unref());
    }
  }

  private onEvent(event: { type: string; pause?: PausedCall; id?: string; record?: { decision: string; by: string } }): void {
    if (event.type === 'paused' && event.pause) {
      const pause = { ...event.pause, gateway: this.name };
      this.paused.set(pause.id, pause);
      this.emit({
        type: 'pauses.changed',
        gateway: this.name,
        opened: { id: pause.id, method: pause.method, at: pause.at, ...(pause.target !== undefined ? { target: pause.target } : {}) },
      });
    } else if (event.type === 'resolved' && event.id) {
      this.drop(event.id, event.record?.decision ?? 'resolved', event.record?.by ?? 'gateway');
    }
  }

  private drop(id: string, decision: string, by: string): void {
    if (!this.paused.delete(id)) return;
    this.emit({ type: 'pauses.changed', gateway: this.name, resolved: { id, decision, by } });
  }
}
