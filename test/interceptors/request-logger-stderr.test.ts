// request-logger's default log ([path-speed]): the lines made within LOG_HOLD_MS reach stderr in one write,
// after the answers made meanwhile, instead of one write per sink call ahead of each answer (a gateway
// reads its servers' stderr: every write woke it before the answer it waited for).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOG_HOLD_MS, stderrLine } from '../../src/main/interceptors/samples/request-logger';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('request-logger stderr lines', () => {
  it('writes the lines of a hold together, after it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setImmediate'] });
    const writes: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation(((chunk: string) => {
      writes.push(String(chunk));
      return true;
    }) as typeof process.stderr.write);
    stderrLine('[request-logger] one');
    vi.advanceTimersByTime(LOG_HOLD_MS - 1);
    stderrLine('[request-logger] two'); // a later turn, within the hold
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(writes).toEqual(['[request-logger] one\n[request-logger] two\n']);
    stderrLine('[request-logger] three');
    vi.advanceTimersByTime(LOG_HOLD_MS);
    expect(writes).toEqual(['[request-logger] one\n[request-logger] two\n', '[request-logger] three\n']);
  });
});
