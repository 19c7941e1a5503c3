// request-logger's default log ([path-speed]): the lines of one event-loop turn reach stderr in one write
// at the turn's end, after the answers made in it, instead of one write per sink call ahead of each answer
// (a gateway reads its servers' stderr: every write woke it before the answer it waited for).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stderrLine } from '../../src/main/interceptors/samples/request-logger';

afterEach(() => vi.restoreAllMocks());

describe('request-logger stderr lines', () => {
  it('writes the lines of one turn together, after it', async () => {
    const writes: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation(((chunk: string) => {
      writes.push(String(chunk));
      return true;
    }) as typeof process.stderr.write);
    stderrLine('[request-logger] one');
    stderrLine('[request-logger] two');
    expect(writes).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(writes).toEqual(['[request-logger] one\n[request-logger] two\n']);
    stderrLine('[request-logger] three');
    await new Promise((r) => setImmediate(r));
    expect(writes).toEqual(['[request-logger] one\n[request-logger] two\n', '[request-logger] three\n']);
  });
});
