// A bulk replay: the regression check after a chain change. It replays the executions of a filter in the
// background (a few at a time through shared replay sessions), reports progress, can be cancelled, and
// groups each original/replay pair by what changed: "12 blocked → allowed", "3 payloads changed".
import { randomUUID } from 'node:crypto';
import type { BulkGroup, BulkJob, ReplayMode } from '../../../shared/api/models-traffic';
import type { ExecutionRecord } from '../../../shared/trace/execution';
import { changeKind, outcomeWord } from '../../../shared/traffic/compare';
import type { Replayer } from './replayer';
import type { ExecutionDetail } from '../../history/model/executions';

const PAIRS_PER_GROUP = 500;
const CONCURRENCY = 4;
const PROGRESS_EVERY_MS = 100;

export interface BulkJobDeps {
  replayer: Replayer;
  detail(id: string): ExecutionDetail | undefined | Promise<ExecutionDetail | undefined>;
  /** Throttled progress, and once more when the job ends. */
  progress(job: BulkJob): void;
  /** After the last replay: make the replays readable and tell the screens. */
  finished(job: BulkJob): Promise<void>;
}

export class BulkReplayJob {
  readonly id = randomUUID();
  private state: BulkJob['state'] = 'running';
  private done = 0;
  private readonly startedAt = new Date().toISOString();
  private finishedAt?: string;
  private error?: string;
  private readonly groups = new Map<string, BulkGroup>();
  private cancelled = false;
  private lastProgress = 0;
  readonly finishedPromise: Promise<void>;

  constructor(
    private readonly ids: string[],
    private readonly mode: ReplayMode,
    private readonly deps: BulkJobDeps,
  ) {
    this.finishedPromise = this.run();
  }

  view(): BulkJob {
    const order = { outcome: 0, payload: 1, failed: 2, unchanged: 3 };
    return {
      jobId: this.id,
      state: this.state,
      mode: this.mode,
      done: this.done,
      total: this.ids.length,
      startedAt: this.startedAt,
      ...(this.finishedAt ? { finishedAt: this.finishedAt } : {}),
      ...(this.error ? { error: this.error } : {}),
      groups: [...this.groups.values()].sort((a, b) => order[a.kind] - order[b.kind] || b.count - a.count).map((g) => ({ ...g, pairs: [...g.pairs] })),
    };
  }

  /** Stops taking new executions; those in flight finish and are counted. */
  cancel(): void {
    if (this.state === 'running') this.cancelled = true;
  }

  private async run(): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (!this.cancelled && next < this.ids.length) {
        const id = this.ids[next++]!;
        await this.replayOne(id);
        this.done++;
        this.maybeProgress();
      }
    };
    let final: BulkJob['state'];
    try {
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, this.ids.length) }, worker));
      final = this.cancelled ? 'cancelled' : 'done';
    } catch (err) {
      final = 'failed';
      this.error = (err as Error).message;
    }
    // The job reads as finished only once its replays are readable (flushed) and announced.
    await this.deps.replayer.close().catch(() => undefined);
    await this.deps.finished(this.view()).catch(() => undefined);
    this.finishedAt = new Date().toISOString();
    this.state = final;
    this.deps.progress(this.view());
  }

  private async replayOne(id: string): Promise<void> {
    const original = await this.deps.detail(id);
    if (!original) return this.add({ key: 'failed', kind: 'failed', label: 'could not replay' }, { originalId: id, error: 'no longer recorded (pruned?)' });
    let replay: ExecutionRecord;
    try {
      replay = await this.deps.replayer.replay(original, this.mode);
    } catch (err) {
      return this.add({ key: 'failed', kind: 'failed', label: 'could not replay' }, { originalId: id, error: (err as Error).message });
    }
    const pair = { originalId: id, replayId: replay.id };
    const kind = changeKind(original, replay);
    if (kind === 'outcome') {
      const label = `${outcomeWord(original.outcome)} → ${outcomeWord(replay.outcome)}`;
      return this.add({ key: `outcome:${original.outcome}>${replay.outcome}`, kind, label, from: original.outcome, to: replay.outcome }, pair);
    }
    if (kind === 'payload') return this.add({ key: 'payload', kind, label: 'payloads changed' }, pair);
    return this.add({ key: 'unchanged', kind, label: 'unchanged' }, pair);
  }

  private add(group: Omit<BulkGroup, 'count' | 'pairs'>, pair: BulkGroup['pairs'][number]): void {
    let g = this.groups.get(group.key);
    if (!g) this.groups.set(group.key, (g = { ...group, count: 0, pairs: [] }));
    g.count++;
    if (g.pairs.length < PAIRS_PER_GROUP) g.pairs.push(pair);
  }

  private maybeProgress(): void {
    const now = Date.now();
    if (now - this.lastProgress < PROGRESS_EVERY_MS) return;
    this.lastProgress = now;
    this.deps.progress(this.view());
  }
}
