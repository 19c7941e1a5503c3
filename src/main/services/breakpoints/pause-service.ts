// The console's side of breakpoints: the live breakpoints it set per gateway (applied whenever that gateway
// starts, since each start builds a new gateway object), the calls paused in every running gateway, the
// decisions taken on them (as "you"), and a `pauses.changed` event for each pause opened or resolved.
import { ApiError } from '../../../shared/api/envelope';
import type { ApiEvent } from '../../../shared/api/events';
import { z } from 'zod';
import { BreakpointSchema, type Breakpoint } from '../../../shared/config/breakpoints';
import { PAUSE_ACTOR_YOU, type PauseDecision, type PausedCall } from '../../../shared/trace/pauses';
import { PauseDecisionError, type PauseRegistry } from '../../gateway/breakpoints/pause-registry';
import type { GatewayBreakpoints } from '../../gateway/breakpoints/breakpoint-set';
import type { GatewayManager } from '../gateway-manager';
import { RemoteControl } from './remote-control';

export interface GatewayBreakpointsView {
  gateway: string;
  config: Breakpoint[];
  live: Breakpoint[];
}

export class PauseService {
  private readonly live = new Map<string, Breakpoint[]>();
  /** Gateways of other processes this console is attached to (their control endpoints), by name. */
  private readonly remotes = new Map<string, RemoteControl>();
  /** Registries already forwarding their events (a gateway object lives from one start to its stop). */
  private readonly watched = new WeakSet<PauseRegistry>();

  constructor(
    private readonly manager: GatewayManager,
    private readonly emit: (event: ApiEvent) => void,
  ) {
    manager.onEvent((event) => {
      if (event.type === 'gateway.status' && event.status === 'running') this.watch(event.id);
    });
  }

  paused(): (PausedCall & Record<string, unknown>)[] {
    const out: (PausedCall & Record<string, unknown>)[] = [];
    for (const g of this.manager.list()) {
      const set = this.manager.has(g.id) ? this.manager.runtimeOf(g.id)?.breakpoints?.() : undefined;
      if (set) out.push(...(set.pauses.list() as (PausedCall & Record<string, unknown>)[]));
    }
    for (const remote of this.remotes.values()) out.push(...(remote.list() as (PausedCall & Record<string, unknown>)[]));
    return out.sort((a, b) => a.pausedAt.localeCompare(b.pausedAt));
  }

  /** Attaches to a gateway's control endpoint (checked with its token before it is kept). */
  async attach(name: string, url: string, token: string): Promise<{ name: string; url: string }> {
    if (this.manager.has(name) || this.remotes.has(name)) throw new ApiError('conflict', `"${name}" already names a gateway here; attach under another name`);
    const remote = new RemoteControl(name, url.replace(/\/+$/, ''), token, this.emit);
    await remote.attach();
    this.remotes.set(name, remote);
    return { name, url: remote.url };
  }

  detach(name: string): { done: true } {
    const remote = this.remotes.get(name);
    if (!remote) throw new ApiError('not_found', `No attached gateway "${name}"`);
    this.remotes.delete(name);
    remote.detach();
    return { done: true };
  }

  attached(): { name: string; url: string; problem?: string }[] {
    return [...this.remotes.values()].map((r) => ({ name: r.name, url: r.url, ...(r.problem ? { problem: r.problem } : {}) }));
  }

  /** Detaches every remote (the console shuts down). */
  close(): void {
    for (const r of this.remotes.values()) r.detach();
    this.remotes.clear();
  }

  async decide(gateway: string, id: string, decision: PauseDecision): Promise<{ done: true }> {
    const remote = this.remotes.get(gateway);
    if (remote) {
      await remote.decide(id, decision, PAUSE_ACTOR_YOU);
      return { done: true };
    }
    const set = this.running(gateway);
    try {
      set.pauses.decide(id, decision, PAUSE_ACTOR_YOU);
    } catch (err) {
      if (err instanceof PauseDecisionError) throw new ApiError(err.code === 'not-found' ? 'not_found' : 'invalid_input', err.message);
      throw err;
    }
    return { done: true };
  }

  async get(gateway: string): Promise<GatewayBreakpointsView> {
    const remote = this.remotes.get(gateway);
    if (remote) return remote.breakpoints();
    this.manager.status(gateway); // not_found for an unknown gateway
    const set = this.manager.runtimeOf(gateway)?.breakpoints?.();
    let config: Breakpoint[];
    if (set) config = [...set.configBreakpoints];
    else {
      // Not running: read them from the saved config (an invalid list shows as none; the config screen says why).
      const parsed = z.array(BreakpointSchema).safeParse((this.manager.get(gateway).config as { breakpoints?: unknown }).breakpoints ?? []);
      config = parsed.success ? parsed.data : [];
    }
    return { gateway, config, live: this.live.get(gateway) ?? [] };
  }

  async set(gateway: string, live: Breakpoint[]): Promise<GatewayBreakpointsView> {
    const remote = this.remotes.get(gateway);
    if (remote) return remote.setLive(live);
    this.manager.status(gateway);
    this.live.set(gateway, live);
    this.manager.runtimeOf(gateway)?.breakpoints?.()?.setLive(live);
    return this.get(gateway);
  }

  private running(gateway: string): GatewayBreakpoints {
    this.manager.status(gateway);
    const set = this.manager.runtimeOf(gateway)?.breakpoints?.();
    if (!set) throw new ApiError('conflict', `Gateway "${gateway}" is not running in this console, so nothing of it is paused here.`);
    return set;
  }

  private watch(gateway: string): void {
    const set = this.manager.runtimeOf(gateway)?.breakpoints?.();
    if (!set) return;
    set.setLive(this.live.get(gateway) ?? []);
    if (this.watched.has(set.pauses)) return;
    this.watched.add(set.pauses);
    set.pauses.on('paused', (p) =>
      this.emit({ type: 'pauses.changed', gateway, opened: { id: p.id, method: p.method, at: p.at, ...(p.target !== undefined ? { target: p.target } : {}) } }),
    );
    set.pauses.on('resolved', (r) => this.emit({ type: 'pauses.changed', gateway, resolved: { id: r.id, decision: r.record.decision, by: r.record.by } }));
  }
}
