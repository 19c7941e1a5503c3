// Import obeys the rules recording obeys (#16 item 5): the configured redaction at rest is applied
// (checked in the raw bytes of the SQLite file, search index included), gateway config lines lose
// their credentials, values are validated (a startedAt that is not a date, a negative duration) and
// lines are bounded, each refusal naming its line, and nothing is imported when one line is refused.
// Through the store, the app's `history.import` and the CLI.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countExecutions, createRedactor, exportToString, importFromFile, importFromString, ImportError, openStore } from '../../src/main/history/sqlite';
import { fileLines, LineTooLongError } from '../../src/main/history/model/portability/line-reader';
import { buildEnvironment } from '../../src/main/services/bootstrap';
import { createAppCore } from '../../src/main/services/app-core';
import { silentLogger } from '../../src/main/services/environment';
import { SqliteHistory } from '../../src/main/history/sqlite';
import { repoRoot } from '../app/helpers';
import { dispatcherCalls } from '../app/dispatch';
import { cliPath } from '../gateway/helpers';
import { makeExecution, tempDir } from './fixtures';

const SECRET_BODY = 'launch-code-Zq83xKw'; // a password argument: a redacted payload field
const TOKEN = 'tok-Hh27PqLm'; // a bearer token of a gateway config
const ENV_SECRET = 'sk-Vv61RtNa'; // an environment variable of a gateway config

let root: string;
let cleanup: () => void;
beforeAll(() => ({ dir: root, cleanup } = tempDir('ic-import-rules-')));
afterAll(() => cleanup());

let n = 0;
const fresh = (name: string) => join(root, `${name}-${++n}`);

/** An export holding all three secrets, as a (hand-edited or foreign) file may. */
function exportWithSecrets(): string {
  const execution = makeExecution({ gateway: 'alpha', startedAt: '2025-06-01T12:00:01.000Z' });
  // The received request is also the first step's input (the same object): both carry it.
  (execution.requestReceived as { arguments: Record<string, unknown> }).arguments.password = SECRET_BODY;
  const config = {
    backend: { transport: 'stdio', name: 'b', command: 'server', env: { API_KEY: ENV_SECRET } },
    listen: { transport: 'http', port: 0, tokens: { [TOKEN]: { type: 'user', id: 'alice' } } },
  };
  return [
    JSON.stringify({ format: 'interceptor-console-history', version: 1 }),
    JSON.stringify({ type: 'gateway', name: 'alpha', config, createdAt: '2025-06-01T12:00:00.000Z', updatedAt: '2025-06-01T12:00:00.000Z' }),
    JSON.stringify({ type: 'execution', execution }),
    '',
  ].join('\n');
}

/** Every byte SQLite keeps for the file: the database, and the WAL if one is left. */
function rawBytes(path: string): string {
  return [path, `${path}-wal`]
    .filter(existsSync)
    .map((p) => readFileSync(p).toString('latin1'))
    .join('');
}

const redactBody = createRedactor({ paths: ['arguments.password'] })!;

describe('import through the store', () => {
  it('applies the redaction at rest and removes credentials from gateway configs (raw SQLite bytes)', () => {
    const path = `${fresh('store')}.db`;
    const store = openStore(path);
    expect(importFromString(store.db, exportWithSecrets(), { redactor: redactBody })).toMatchObject({ executions: 1, gateways: 1 });
    // Searchable: the rows and the search index are written.
    const exported = exportToString(store.db).jsonl;
    store.close();
    const bytes = rawBytes(path);
    for (const secret of [SECRET_BODY, TOKEN, ENV_SECRET]) expect(bytes.includes(secret), secret).toBe(false);
    expect(bytes).toContain('[REDACTED]');
    expect(exported).toContain('"API_KEY":"[redacted]"');
    expect(exported).toContain('"[redacted] #1":{"type":"user","id":"alice"}');
  });

  it('refuses a startedAt that is not a date, negative durations and what the API could not hand out, naming the line and importing nothing', () => {
    const good = exportWithSecrets().trimEnd().split('\n');
    const cases: [string, (e: Record<string, unknown>) => void, RegExp][] = [
      ['startedAt', (e) => (e.startedAt = 'not-a-date'), /^line 4: execution\.startedAt: must be a date and time .*got "not-a-date"/],
      ['durationMs', (e) => (e.durationMs = -5), /^line 4: execution\.durationMs: must not be negative, got -5/],
      [
        'trace durationMs',
        (e) => ((e.requestTrace as Record<string, unknown>).durationMs = -1),
        /^line 4: execution\.requestTrace\.durationMs: must not be negative/,
      ],
      [
        'step durationMs',
        (e) => ((e.requestTrace as { steps: Record<string, unknown>[] }).steps[0]!.durationMs = -2),
        /^line 4: execution\.requestTrace\.steps\.0\.durationMs: must not be negative/,
      ],
      [
        'trace startedAt',
        (e) => ((e.requestTrace as Record<string, unknown>).startedAt = 'yesterday'),
        /^line 4: execution\.requestTrace\.startedAt: must be a date/,
      ],
      // What the API's strict schemas refuse is refused here too (the detail of such an execution could not be read).
      [
        'step outcome',
        (e) => ((e.requestTrace as { steps: Record<string, unknown>[] }).steps[0]!.outcome = 'maybe'),
        /^line 4: execution\.requestTrace\.steps\.0\.outcome: Invalid option/,
      ],
      [
        'trace without its validation summary',
        (e) => delete (e.requestTrace as Record<string, unknown>).validationSummary,
        /^line 4: execution\.requestTrace\.validationSummary: /,
      ],
      ['errorReturned code', (e) => (e.errorReturned = { code: 'x', message: 'm' }), /^line 4: execution\.errorReturned\.code: /],
    ];
    for (const [what, spoil, message] of cases) {
      const bad = makeExecution() as unknown as Record<string, unknown>;
      spoil(bad);
      const text = [...good, JSON.stringify({ type: 'execution', execution: bad })].join('\n');
      const store = openStore(`${fresh('invalid')}.db`);
      try {
        let error: unknown;
        try {
          importFromString(store.db, text);
        } catch (err) {
          error = err;
        }
        expect(error, what).toBeInstanceOf(ImportError);
        expect((error as Error).message, what).toMatch(message);
        expect((error as Error).message).toMatch(/Nothing was imported\.$/);
        // All or nothing: the valid lines before it were not kept either.
        expect(countExecutions(store.db), what).toBe(0);
        expect(store.db.prepare('SELECT count(*) FROM gateways').pluck().get(), what).toBe(0);
      } finally {
        store.close();
      }
    }
  });

  it('refuses a line over the bound as soon as the bound is passed, naming it', () => {
    const file = `${fresh('long')}.jsonl`;
    const header = JSON.stringify({ format: 'interceptor-console-history', version: 1 });
    writeFileSync(file, `${header}\n${'x'.repeat(3 * 1024 * 1024)}\nnever read\n`);
    const lines: string[] = [];
    expect(() => {
      for (const l of fileLines(file, 1024 * 1024)) lines.push(l);
    }).toThrow(LineTooLongError);
    expect(lines).toEqual([header]);
    // Lines up to the bound, across chunk boundaries, come back whole.
    const fits = `${fresh('fits')}.jsonl`;
    const long = 'y'.repeat(1024 * 1024);
    writeFileSync(fits, `a\n${long}\n${long}\nb`);
    expect([...fileLines(fits, 1024 * 1024)]).toEqual(['a', long, long, 'b']);
    const store = openStore(`${fresh('long')}.db`);
    try {
      expect(() => importFromFile(store.db, file, { maxLineBytes: 1024 * 1024 })).toThrow(/^line 2: longer than 1048576 bytes/);
      expect(() => importFromString(store.db, readFileSync(file, 'utf8'), { maxLineBytes: 1024 * 1024 })).toThrow(/^line 2: longer than 1048576 bytes/);
    } finally {
      store.close();
    }
  });
});

describe('import through the app (history.import)', () => {
  it('applies the redaction configured in Settings (raw SQLite bytes)', async () => {
    const dataDir = fresh('app');
    const env = buildEnvironment({ mode: 'test', packageRoot: repoRoot, dataDir, logger: silentLogger });
    const core = createAppCore(env, { history: SqliteHistory.open(env.dbPath) });
    const { call } = dispatcherCalls(() => core);
    try {
      await core.start({ demo: false });
      await call('settings.update', { redactPaths: ['arguments.password'] });
      expect(await call('history.import', { jsonl: exportWithSecrets() })).toEqual({ imported: 1 });
    } finally {
      await core.shutdown();
    }
    const bytes = rawBytes(env.dbPath);
    for (const secret of [SECRET_BODY, TOKEN, ENV_SECRET]) expect(bytes.includes(secret), secret).toBe(false);
  }, 30_000);
});

describe('import through the CLI', () => {
  const cli = (dataDir: string, ...args: string[]) => {
    const r = spawnSync(
      process.execPath,
      // Reports the process's peak memory on exit, so the line bound is seen to bound memory.
      ['--import', 'data:text/javascript,process.on("exit",()=>process.stderr.write(`maxRSS ${process.resourceUsage().maxRSS}\\n`))', cliPath, ...args],
      { encoding: 'utf8', env: { ...process.env, INTERCEPTOR_CONSOLE_DB: '', INTERCEPTOR_CONSOLE_DATA: dataDir } },
    );
    const rss = Number(/maxRSS (\d+)/.exec(r.stderr)?.[1] ?? NaN) * 1024;
    return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, rssBytes: rss };
  };

  it('applies the redaction configured in the data folder (raw SQLite bytes)', () => {
    const dataDir = fresh('cli');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ redactPaths: ['arguments.password'] }));
    const file = `${fresh('cli')}.jsonl`;
    writeFileSync(file, exportWithSecrets());
    const db = `${fresh('cli')}.db`;
    const r = cli(dataDir, 'import', '--db', db, file);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('imported 1 execution(s)');
    const bytes = rawBytes(db);
    for (const secret of [SECRET_BODY, TOKEN, ENV_SECRET]) expect(bytes.includes(secret), secret).toBe(false);
  }, 30_000);

  it('names the invalid line, and refuses a 64 MB line without holding it', () => {
    const dataDir = fresh('cli');
    const header = JSON.stringify({ format: 'interceptor-console-history', version: 1 });
    const invalid = `${fresh('cli')}.jsonl`;
    writeFileSync(invalid, `${header}\n${JSON.stringify({ type: 'execution', execution: { ...makeExecution(), startedAt: 'not-a-date' } })}\n`);
    const r = cli(dataDir, 'import', '--db', `${fresh('cli')}.db`, invalid);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/line 2: execution\.startedAt: must be a date and time.*"not-a-date".*Nothing was imported/);

    const huge = `${fresh('cli')}.jsonl`;
    writeFileSync(huge, `${header}\n{"type":"execution","execution":{"id":"${'x'.repeat(64 * 1024 * 1024)}"}}\n`);
    const big = cli(dataDir, 'import', '--db', `${fresh('cli')}.db`, huge);
    expect(big.code).toBe(1);
    expect(big.stderr).toMatch(/line 2: longer than 16777216 bytes.*--max-line-mb.*Nothing was imported/);
    // Held whole, the line cost 647 MB (ten times its size); bounded, the import costs less than the
    // line itself over what the same import of a small file costs, measured side by side.
    const small = cli(dataDir, 'import', '--db', `${fresh('cli')}.db`, invalid);
    expect(Number.isFinite(big.rssBytes) && Number.isFinite(small.rssBytes)).toBe(true);
    expect(big.rssBytes - small.rssBytes).toBeLessThan(64 * 1024 * 1024);
  }, 60_000);
});
