// The history commands through the built bin, on a file recorded by a real headless gateway
// (server-everything behind the sample interceptors): history --json shows each execution with
// its steps and the blocking interceptor; export → import → export is identical; prune; errors.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, afterAll, describe, expect, it, vi } from 'vitest';
import type { ExecutionRecord } from '../../src/shared/trace/execution';
import { LineClient, cliPath, everythingBackend, waitFor, writeConfig } from '../gateway/helpers';
import { tempDir } from './fixtures';

// Every case spawns the bin several times; each start costs seconds on a busy machine.
vi.setConfig({ testTimeout: 180_000 });

let dir: string;
let cleanup: () => void;
let db: string;

function cli(...args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cliPath, ...args], { encoding: 'utf8', env: { ...process.env, INTERCEPTOR_CONSOLE_DB: '' } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('ic-store-cli-'));
  db = join(dir, 'history.db');
  const config = writeConfig({
    serverInfo: { name: 'cli-gateway', version: '1' },
    backend: everythingBackend,
    staticInterceptors: [{ transport: 'stdio', name: 'samples', command: process.execPath, arguments: [cliPath, 'serve-samples'] }],
    overrides: { 'samples/tool-allowlist': { config: { allow: ['*'] } } },
  });
  const gw = new LineClient([cliPath, 'gateway', '--config', config, '--db', db]);
  await gw.initialize();
  await gw.request(1, 'tools/call', { name: 'echo', arguments: { message: 'mail me@example.org' } });
  await gw.request(2, 'tools/call', { name: 'echo', arguments: { message: 'my ssn is 078-05-1120' } });
  gw.child.kill('SIGTERM');
  await waitFor(() => gw.exit !== undefined, 15_000, 'gateway exit');
  expect(gw.exit!.code).toBe(0);
}, 60_000);

afterAll(() => cleanup());

describe('interceptor-console history / export / import / prune', () => {
  it('history --json shows each execution with its steps and the blocking interceptor', () => {
    const r = cli('history', '--db', db, '--method', 'tools/call', '--json');
    expect(r.code, r.stderr).toBe(0);
    const executions = JSON.parse(r.stdout) as (ExecutionRecord & { sinkEvents: unknown[] })[];
    expect(executions).toHaveLength(2);
    const [blocked, mutated] = executions; // newest first
    expect(blocked!.outcome).toBe('blocked');
    expect(blocked!.blockedBy).toMatchObject({ server: 'samples', interceptor: 'pii-validator', phase: 'request' });
    const piiStep = blocked!.requestTrace!.steps.find((s) => s.name === 'pii-validator')!;
    expect(piiStep).toMatchObject({ server: 'samples', type: 'validation', outcome: 'blocked' });
    expect(piiStep.input).toMatchObject({ name: 'echo' });
    expect(mutated!.outcome).toBe('mutated');
    const redactor = mutated!.requestTrace!.steps.find((s) => s.name === 'email-redactor')!;
    expect(redactor).toMatchObject({ type: 'mutation', outcome: 'mutated' });
    expect(mutated!.requestForwarded).toMatchObject({ arguments: { message: 'mail [EMAIL_REDACTED]' } });
    expect(mutated!.responseTrace).toBeDefined();
    expect(Array.isArray(mutated!.sinkEvents)).toBe(true);
  });

  it('history prints a table, filters, searches and pages', () => {
    const table = cli('history', '--db', db, '--outcome', 'blocked');
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/time \(UTC\)\s+gateway\s+method/);
    expect(table.stdout).toContain('samples/pii-validator (request)');
    expect(table.stdout.trim().split('\n')).toHaveLength(3);
    const search = cli('history', '--db', db, '--search', 'EMAIL_REDACTED', '--json');
    expect((JSON.parse(search.stdout) as ExecutionRecord[]).map((e) => e.outcome)).toEqual(['mutated']);
    const page = cli('history', '--db', db, '--limit', '1');
    expect(page.stderr).toMatch(/More: add --cursor -?\d+/);
    const cursor = /--cursor (-?\d+)/.exec(page.stderr)![1]!;
    const next = cli('history', '--db', db, '--limit', '1', '--cursor', cursor, '--json');
    expect(JSON.parse(next.stdout)).toHaveLength(1);
    expect(cli('history', '--db', db, '--gateway', 'nobody').stdout).toContain('No recorded executions match.');
  });

  it('export → import into a fresh file → export gives identical files', () => {
    const first = join(dir, 'first.jsonl');
    const second = join(dir, 'second.jsonl');
    const copy = join(dir, 'copy.db');
    expect(cli('export', '--db', db, '--out', first).code).toBe(0);
    const imported = cli('import', '--db', copy, first);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/imported \d+ execution\(s\)/);
    expect(cli('export', '--db', copy, '--out', second).code).toBe(0);
    expect(readFileSync(second)).toEqual(readFileSync(first));
    // stdout is the default destination, byte for byte the same.
    expect(cli('export', '--db', copy).stdout).toBe(readFileSync(first, 'utf8'));
  });

  it('prune keeps the newest executions', () => {
    const copy = join(dir, 'prune.db');
    const file = join(dir, 'for-prune.jsonl');
    expect(cli('export', '--db', db, '--out', file).code).toBe(0);
    expect(cli('import', '--db', copy, file).code).toBe(0);
    const before = (JSON.parse(cli('history', '--db', copy, '--json', '--limit', '1000').stdout) as unknown[]).length;
    const r = cli('prune', '--db', copy, '--max-executions', '1');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`deleted ${before - 1} execution(s)`);
    expect(JSON.parse(cli('history', '--db', copy, '--json').stdout)).toHaveLength(1);
  });

  it('exits 2 on usage errors and 1 on failures, saying what to do', () => {
    expect(cli('history', '--db', db, '--limit', '0').code).toBe(2);
    expect(cli('history', '--db', db, '--outcome', 'maybe').code).toBe(2);
    expect(cli('history', '--db', db, '--since', 'last tuesday').stderr).toMatch(/ISO 8601/);
    expect(cli('history', '--db', db, '--bogus').code).toBe(2);
    expect(cli('prune', '--db', db).code).toBe(2);
    expect(cli('import', '--db', db).code).toBe(2);

    const missing = cli('history', '--db', join(dir, 'absent.db'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no history database at .*absent\.db/);
    const notes = join(dir, 'notes.txt');
    writeFileSync(notes, 'not a database');
    const foreign = cli('history', '--db', notes);
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toMatch(/not an SQLite database.*left untouched/);
    expect(readFileSync(notes, 'utf8')).toBe('not a database');

    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, `${cli('export', '--db', db).stdout.split('\n')[0]}\n{"type":"execution","execution":{}}\n`);
    const target = join(dir, 'bad-target.db');
    const failed = cli('import', '--db', target, bad);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/line 2: .*Nothing was imported/);
    expect(cli('history', '--db', target).stdout).toContain('No recorded executions match.');
  });
});
