// The breakpoints a gateway process owns: those of its config file (hot-reloaded with it) plus those set
// live from a console or the terminal (kept until the gateway stops), and the open pauses. Matching is
// synchronous and costs nothing when there are no breakpoints: the relay's hot path asks `empty` first.
import { globToRegExp, type Breakpoint, type BreakPoint } from '../../../shared/config/breakpoints';
import { NEVER_INTERCEPTED } from '../../../shared/protocol/constants';
import type { ChainTrace } from '../../../shared/trace/types';
import { PauseRegistry } from './pause-registry';

/** What a breakpoint is matched against at one point of one call. */
export interface MatchSubject {
  method: string;
  target: string | undefined;
  principal: string | undefined;
  /** After-chain points: the trace of the phase that just ran (undefined when no chain ran). */
  trace?: ChainTrace | undefined;
}

export class GatewayBreakpoints {
  readonly pauses = new PauseRegistry();
  private live: Breakpoint[] = [];
  /** Set while the gateway stops: nothing pauses any more (a pause would hold the drain). */
  suspended = false;
  private readonly patterns = new Map<string, RegExp>();

  constructor(private readonly fromConfig: () => readonly Breakpoint[]) {}

  /** Config breakpoints first, then the live ones. */
  all(): Breakpoint[] {
    return [...this.fromConfig(), ...this.live];
  }

  /** The breakpoints of the config file (change them there). */
  get configBreakpoints(): readonly Breakpoint[] {
    return this.fromConfig();
  }

  /** The breakpoints set live (the console's list; the config's are changed in the config file). */
  get liveBreakpoints(): readonly Breakpoint[] {
    return this.live;
  }

  setLive(list: readonly Breakpoint[]): void {
    this.live = [...list];
  }

  get empty(): boolean {
    return this.suspended || (this.live.length === 0 && this.fromConfig().length === 0);
  }

  /** Whether some enabled breakpoint may pause this call at some point (method, target, principal). */
  concerns(subject: Omit<MatchSubject, 'trace'>): boolean {
    if (this.empty) return false;
    return this.all().some((bp) => bp.enabled && this.matchesCall(bp, subject));
  }

  /** The first enabled breakpoint that pauses this call at this point. */
  match(point: BreakPoint, subject: MatchSubject): Breakpoint | undefined {
    if (this.empty) return undefined;
    return this.all().find((bp) => bp.enabled && bp.at.includes(point) && this.matchesCall(bp, subject) && this.matchesOutcome(bp, point, subject.trace));
  }

  private matchesCall(bp: Breakpoint, s: Omit<MatchSubject, 'trace'>): boolean {
    // ping and completion/complete (housekeeping, never intercepted) pause only when named exactly, not by a glob.
    if (NEVER_INTERCEPTED.has(s.method) && bp.method !== s.method) return false;
    if (!this.glob(bp.method).test(s.method)) return false;
    if (bp.target !== undefined && (s.target === undefined || !this.glob(bp.target).test(s.target))) return false;
    if (bp.principal !== undefined) {
      const who = (s.principal ?? 'anonymous').toLowerCase();
      if (who !== bp.principal.toLowerCase()) return false;
    }
    return true;
  }

  private matchesOutcome(bp: Breakpoint, point: BreakPoint, trace: ChainTrace | undefined): boolean {
    if (!bp.when) return true;
    // A chain outcome exists only after a chain ran.
    if (point !== 'request-after-chain' && point !== 'response-after-chain') return false;
    const outcome = trace?.decision === 'block' ? 'blocked' : trace?.modified ? 'mutated' : 'allow';
    if (bp.when.outcome !== undefined && bp.when.outcome !== outcome) return false;
    if (bp.when.blockedBy !== undefined) {
      const by = trace?.blockedBy;
      if (!by) return false;
      const re = this.glob(bp.when.blockedBy);
      if (!re.test(by.interceptor) && !re.test(`${by.server}/${by.interceptor}`)) return false;
    }
    return true;
  }

  private glob(pattern: string): RegExp {
    let re = this.patterns.get(pattern);
    if (!re) {
      re = globToRegExp(pattern);
      if (this.patterns.size > 512) this.patterns.clear();
      this.patterns.set(pattern, re);
    }
    return re;
  }
}
