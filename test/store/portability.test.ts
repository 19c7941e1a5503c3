// Export to JSONL and import: lossless (export → import into a fresh file → export is byte-for-byte
// the same), all or nothing (a bad line names its line number and nothing is imported).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  countExecutions,
  exportLines,
  exportToString,
  getExecutionRecord,
  importFromFile,
  importFromString,
  ImportError,
  openStore,
  SqliteHistoryWriter,
} from '../../src/main/history/sqlite';
import { makeExecution } from './fixtures';
import { tempDirsRemovedAfterEach } from './temp-dirs';
import { writeFileSync } from 'node:fs';

const dir = tempDirsRemovedAfterEach();

async function recordedFile(): Promise<string> {
  const path = join(dir(), 'source.db');
  const recorder = SqliteHistoryWriter.open(path, { writerThread: false });
  recorder.recordGateway('alpha', { name: 'alpha', backend: { transport: 'stdio', command: 'server-everything' } });
  recorder.recordSession({
    id: 's1',
    gateway: 'alpha',
    startedAt: '2025-06-01T12:00:00.000Z',
    clientInfo: { name: 'cursor', version: '1' },
    protocolVersion: '2025-06-18',
    transport: 'http',
  });
  const original = makeExecution({ gateway: 'alpha', sessionId: 's1', startedAt: '2025-06-01T12:00:01.000Z' });
  recorder.recordExecution(original);
  recorder.recordExecution(makeExecution({ gateway: 'alpha', outcome: 'blocked', startedAt: '2025-06-01T12:00:02.000Z' }));
  recorder.recordExecution(makeExecution({ gateway: 'beta', outcome: 'error', startedAt: '2025-06-01T12:00:02.000Z', replayOf: original.id }));
  // Odd but legal values must survive too: a non-canonical time, a string JSON-RPC id, unknown fields,
  // a step id that is not server/name, a large payload (stored in the shared payload table).
  const odd = makeExecution({ gateway: 'beta', startedAt: '2025-06-01T14:00:03+02:00', text: 'ü ☃ "quoted" \\ back\nslash '.repeat(400) });
  odd.jsonrpcId = 'req-7';
  (odd as unknown as Record<string, unknown>).futureField = { nested: [1, 2, 3] };
  odd.requestTrace!.steps[0]!.id = 'legacy-id';
  odd.simulated = true;
  recorder.recordExecution(odd);
  await recorder.close();
  return path;
}

describe('export / import', () => {
  it('round-trips byte for byte through a fresh file', async () => {
    const source = openStore(await recordedFile(), { create: false });
    const first = exportToString(source.db);
    expect(first.count).toBe(4);
    const lines = first.jsonl.trimEnd().split('\n');
    expect(JSON.parse(lines[0]!)).toEqual({ format: 'interceptor-console-history', version: 1 });
    expect(lines.map((l) => JSON.parse(l).type)).toEqual([undefined, 'gateway', 'gateway', 'session', 'execution', 'execution', 'execution', 'execution']);

    const copyPath = join(dir(), 'copy.db');
    const exportFile = join(dir(), 'history.jsonl');
    writeFileSync(exportFile, first.jsonl);
    const copy = openStore(copyPath);
    expect(importFromFile(copy.db, exportFile)).toEqual({ executions: 4, duplicates: 0, sessions: 1, gateways: 2 });
    const second = exportToString(copy.db);
    expect(second.jsonl).toBe(first.jsonl);
    // The records themselves are the same, not just their text.
    for (const line of lines.slice(4)) {
      const rec = JSON.parse(line).execution;
      expect(getExecutionRecord(copy.db, rec.id)).toEqual(getExecutionRecord(source.db, rec.id));
    }
    // Importing again skips what is already there.
    expect(importFromString(copy.db, first.jsonl)).toMatchObject({ executions: 0, duplicates: 4 });
    expect(exportToString(copy.db).jsonl).toBe(first.jsonl);
    source.close();
    copy.close();
  });

  it('exports only what a filter selects, with the gateways and sessions it needs', async () => {
    const source = openStore(await recordedFile(), { create: false });
    const { jsonl, count } = exportToString(source.db, { gateway: 'alpha', outcome: 'allow' });
    expect(count).toBe(0);
    const mutated = exportToString(source.db, { gateway: 'alpha', outcome: 'mutated' });
    expect(mutated.count).toBe(1);
    expect(
      mutated.jsonl
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).type),
    ).toEqual([undefined, 'gateway', 'session', 'execution']);
    expect(jsonl.split('\n').filter(Boolean)).toHaveLength(1);
    expect([...exportLines(source.db, { search: 'nothing-matches-this' })]).toHaveLength(1);
    source.close();
  });

  it.each([
    ['a line that is not JSON', (l: string[]) => l.splice(5, 0, '{"type":"execution",'), 6, /not valid JSON/],
    [
      'a record missing a field',
      (l: string[]) =>
        l.splice(5, 0, '{"type":"execution","execution":{"id":"x","gateway":"g","event":"tools/call","startedAt":"2025-01-01T00:00:00Z","durationMs":1}}'),
      6,
      /execution\.outcome/,
    ],
    ['an unknown line type', (l: string[]) => l.splice(3, 0, '{"type":"bogus"}'), 4, /type/],
    ['a missing header', (l: string[]) => l.splice(0, 1), 1, /first line must be/],
  ])('imports nothing when it meets %s, and names the line', async (_what, corrupt, lineNo, message) => {
    const source = openStore(await recordedFile(), { create: false });
    const lines = exportToString(source.db).jsonl.trimEnd().split('\n');
    source.close();
    corrupt(lines);
    const target = openStore(join(dir(), 'target.db'));
    const before = exportToString(target.db).jsonl;
    let error: unknown;
    try {
      importFromString(target.db, lines.join('\n'));
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).line).toBe(lineNo);
    expect((error as Error).message).toMatch(new RegExp(`^line ${lineNo}: `));
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toMatch(/Nothing was imported/);
    expect(countExecutions(target.db)).toBe(0);
    expect(exportToString(target.db).jsonl).toBe(before);
    target.close();
  });

  it('refuses an empty file', () => {
    const target = openStore(join(dir(), 'target.db'));
    expect(() => importFromString(target.db, '\n\n')).toThrow(/empty/);
    target.close();
  });
});
