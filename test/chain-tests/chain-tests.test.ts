// [chain-tests]: recorded calls become a regression suite. Calls are recorded through a real gateway (the
// bundled samples in front of server-everything), saved as case files beside the config, and run by the
// real CLI (`interceptor-console test`) against the chain as it is, then against an edited chain that
// must fail them with a diff (stdout and JUnit), with malformed or stale cases failing alone.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { caseFromExecution, loadCases, saveCase, testsDirFor, type ChainTestCase } from '../../src/main/chain-tests';
import { parseGatewayConfig } from '../../src/shared/config';
import type { ExecutionRecord } from '../../src/shared/trace/execution';
import { cliPath, everythingBackend } from '../gateway/helpers';
import { withRecordingGateway } from '../gateway/recording-gateway';

const baseConfig = {
  backend: everythingBackend,
  staticInterceptors: [{ transport: 'bundled', name: 'samples' }],
  overrides: { 'samples/tool-allowlist': { config: { allow: ['echo', 'get-sum'] } } } as Record<string, unknown>,
};

const CALLS = [
  { name: 'echo', arguments: { message: 'write to alice@example.com please' } }, // email-redactor mutates
  { name: 'get-sum', arguments: { a: 2, b: 3 } }, // allowed, unchanged
  { name: 'get-env', arguments: {} }, // tool-allowlist blocks it
];

async function record(): Promise<ExecutionRecord[]> {
  const parsed = parseGatewayConfig({ ...baseConfig, listen: { transport: 'http', port: 0 } });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return withRecordingGateway(parsed.config, 'chain-tests', async ({ client, toolCalls }) => {
    for (const call of CALLS) await client.callTool(call);
    return toolCalls();
  });
}

function cli(args: string[]) {
  const run = spawnSync(process.execPath, [cliPath, 'test', ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

function writeConfig(dir: string, overrides: Record<string, unknown>): string {
  const file = join(dir, 'gateway.json');
  writeFileSync(file, JSON.stringify({ ...baseConfig, overrides: { ...baseConfig.overrides, ...overrides } }, null, 2));
  return file;
}

describe('chain tests from recorded calls', () => {
  let records: ExecutionRecord[];
  let dir: string;
  let configFile: string;
  let casesDir: string;
  let mutated: ChainTestCase;

  beforeAll(async () => {
    records = await record();
    expect(records.map((r) => r.outcome)).toEqual(['mutated', 'allow', 'blocked']);
    dir = mkdtempSync(join(tmpdir(), 'ic-chain-tests-'));
    configFile = writeConfig(dir, {});
    casesDir = testsDirFor(configFile);
    for (const r of records) saveCase(casesDir, caseFromExecution(r));
    mutated = caseFromExecution(records[0]!);
  }, 60_000);

  it('saves readable cases beside the config: the request, the backend answer and the expected outcome', () => {
    expect(casesDir).toBe(join(dir, 'gateway.tests'));
    expect(readdirSync(casesDir).sort()).toEqual(['tools-call-echo-mutated.json', 'tools-call-get-env-blocked.json', 'tools-call-get-sum-allowed.json']);
    const text = readFileSync(join(casesDir, 'tools-call-echo-mutated.json'), 'utf8');
    // A case holds recorded payloads: owner-only, like every file the console writes.
    if (process.platform !== 'win32') expect(statSync(join(casesDir, 'tools-call-echo-mutated.json')).mode & 0o777).toBe(0o600);
    expect(text).toContain('\n  "expect": {'); // indented for review in git
    const loaded = loadCases(casesDir);
    expect(loaded.every((c) => c.case && !c.error)).toBe(true);
    expect(mutated.expect.decidedBy).toEqual([{ interceptor: 'samples/email-redactor', phase: 'request', outcome: 'mutated' }]);
    expect(JSON.stringify(mutated.expect.forwarded)).not.toContain('alice@example.com');
    expect(mutated.backendAnswer && 'result' in mutated.backendAnswer).toBe(true);
    const blocked = loaded.find((c) => c.case?.expect.outcome === 'blocked')!.case!;
    expect(blocked.expect.decidedBy?.[0]).toMatchObject({ interceptor: 'samples/tool-allowlist', outcome: 'blocked' });
    expect(blocked.backendAnswer).toBeUndefined(); // never reached the backend
  });

  it('passes against the chain it was recorded on, with no backend running', () => {
    const run = cli(['--config', configFile]);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/PASS {2}tools\/call echo mutated/);
    expect(run.out).toContain('3 passed, 0 failed, 0 could not run');
  });

  it('fails when the chain is edited so that it no longer redacts, with the diff on stdout and in JUnit', () => {
    const edited = writeConfig(dir, { 'samples/email-redactor': { enabled: false } });
    const junit = join(dir, 'results.xml');
    const run = cli(['--config', edited, '--cases', casesDir, '--junit', junit]);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/FAIL {2}tools\/call echo mutated/);
    expect(run.out).toContain('outcome: expected mutated, got allowed');
    expect(run.out).toMatch(/\$\.arguments\.message: expected ".*", got "write to alice@example\.com please"/);
    expect(run.out).toContain('step samples/email-redactor (request): mutated -> (not run)');
    expect(run.out).toMatch(/skipped samples\/email-redactor \(request\): disabled/);
    expect(run.out).toContain('2 passed, 1 failed, 0 could not run');
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('<testsuites tests="3" failures="1" errors="0"');
    expect(xml).toMatch(/<testcase [^>]*name="tools\/call echo mutated"[^>]*>\s*<failure message="outcome: expected mutated, got allowed;/);
    expect(xml).toContain('$.arguments.message');
    writeConfig(dir, {});
  });

  it('ignores the JSON paths a case lists', () => {
    const edited = writeConfig(dir, { 'samples/email-redactor': { enabled: false } });
    const own = mkdtempSync(join(tmpdir(), 'ic-chain-tests-ignore-'));
    saveCase(own, {
      ...mutated,
      name: 'message ignored',
      expect: { outcome: 'allowed', forwarded: mutated.expect.forwarded, ignore: ['$.arguments.message'] },
    });
    const run = cli(['--config', edited, '--cases', own]);
    expect(run.out).toContain('1 passed, 0 failed');
    expect(run.code).toBe(0);
    writeConfig(dir, {});
  });

  it('reports a malformed file, a missing backend answer and an interceptor the chain lost per case; the rest still run', () => {
    const own = mkdtempSync(join(tmpdir(), 'ic-chain-tests-bad-'));
    writeFileSync(join(own, 'a-broken.json'), '{"format": "interceptor-console.chain-test/1", "name": ');
    writeFileSync(join(own, 'b-not-a-case.json'), JSON.stringify({ format: 'interceptor-console.chain-test/1', name: 'x', method: 'tools/call' }));
    const noAnswer: ChainTestCase = { ...mutated, name: 'c no answer' };
    delete noAnswer.backendAnswer;
    noAnswer.expect = { ...mutated.expect, returned: { content: [] } };
    saveCase(own, noAnswer);
    saveCase(own, {
      ...mutated,
      name: 'd gone',
      expect: { ...mutated.expect, decidedBy: [{ interceptor: 'samples/retired', phase: 'request', outcome: 'mutated' }] },
    });
    saveCase(own, { ...mutated, name: 'e still fine' });
    const run = cli(['--config', configFile, '--cases', own, '--junit', join(own, 'out.xml')]);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/ERROR a-broken \(0 ms\)\n\s+not JSON: /);
    expect(run.out).toMatch(/ERROR b-not-a-case \(0 ms\)\n\s+not a chain test case: .*expect/);
    expect(run.out).toMatch(/ERROR c no answer .*\n\s+the case has no recorded backend answer/);
    expect(run.out).toMatch(/ERROR d gone .*\n\s+the chain no longer has samples\/retired/);
    expect(run.out).toMatch(/PASS {2}e still fine/);
    expect(run.out).toContain('1 passed, 0 failed, 4 could not run');
    expect(readFileSync(join(own, 'out.xml'), 'utf8')).toContain('errors="4"');
  });

  it('runs live, through the chain to the real backend, where a case without a recorded answer runs too', () => {
    const own = mkdtempSync(join(tmpdir(), 'ic-chain-tests-live-'));
    for (const r of records) saveCase(own, caseFromExecution(r));
    const noAnswer: ChainTestCase = { ...mutated, name: 'no recorded answer' };
    delete noAnswer.backendAnswer;
    saveCase(own, noAnswer);
    const mocked = cli(['--config', configFile, '--cases', own]);
    expect(mocked.out).toContain('3 passed, 0 failed, 1 could not run');
    const live = cli(['--config', configFile, '--cases', own, '--live']);
    expect(live.out).toContain('from ' + own + ', live backend');
    expect(live.out).toContain('4 passed, 0 failed, 0 could not run');
    expect(live.code).toBe(0);
  });

  it('says what to do with no cases, a missing config or bad flags', () => {
    const empty = mkdtempSync(join(tmpdir(), 'ic-chain-tests-empty-'));
    const none = cli(['--config', configFile, '--cases', empty]);
    expect(none.code).toBe(1);
    expect(none.err).toContain('no chain test cases in');
    expect(cli([]).code).toBe(2);
    const missing = cli(['--config', join(empty, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('cannot read the config file');
  });
});
