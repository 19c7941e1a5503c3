// Interop with what the TS reference interceptors SDK emits (issue #14 item 6; `mcp-ext-interceptors` is not
// on npm, so a server that is not built on our host emits those exact shapes over real stdio): a gateway
// (the built CLI) over it and over the bundled samples with no tool-allowlist config. `{modified:false}`
// without a payload is "unchanged", fractional priority hints order by the number, a configSchema that is
// not `{type:"object"}` is accepted, and tool-allowlist without config is a configuration error reported
// at discovery (gateway log, CLI `list`) instead of a block of every call.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LineClient, cliPath, gatewayArgs, root, waitFor, writeConfig } from './helpers';

const referencePath = join(root, 'test/gateway/fixtures/reference-shaped-interceptors.mjs');
const backendPath = join(root, 'test/gateway/fixtures/wire-log-backend.mjs');

describe('gateway over a reference-shaped interceptor server and the samples without tool-allowlist config', () => {
  let gw: LineClient;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ic-ref-'));
    const config = writeConfig({
      backend: { transport: 'stdio', name: 'wire', command: process.execPath, arguments: [backendPath, '--log', join(dir, 'backend.log')] },
      staticInterceptors: [
        { transport: 'stdio', name: 'ref', command: process.execPath, arguments: [referencePath, '--log', join(dir, 'invokes.log')] },
        // No overrides at all: tool-allowlist has no config.
        { transport: 'stdio', name: 'samples', command: process.execPath, arguments: [cliPath, 'serve-samples'] },
      ],
    });
    gw = new LineClient(gatewayArgs(config));
    await gw.initialize();
  });
  afterAll(async () => {
    await gw?.stop();
  });

  const backendLine = async (id: number): Promise<Record<string, unknown>> => {
    const lines = () => readFileSync(join(dir, 'backend.log'), 'utf8').split('\n').filter(Boolean);
    const mine = (l: string) => (JSON.parse(l) as { id?: unknown }).id === id;
    await waitFor(() => lines().some(mine), 10_000, `the backend to log request ${id}`);
    return JSON.parse(lines().find(mine)!) as Record<string, unknown>;
  };

  it('prompts/get behind a mutator answering {modified:false} without a payload is not blocked', async () => {
    const res = await gw.request(1, 'prompts/get', { name: 'greeting' });
    expect(res.error).toBeUndefined();
    expect((res.result as { messages: { content: { text: string } }[] }).messages[0]!.content.text).toBe('hello');
  });

  it('tools/call runs fractional-priority mutators in numeric order, unchanged one included, and is not blocked by tool-allowlist', async () => {
    const res = await gw.request(2, 'tools/call', { name: 'echo', arguments: { note: '' } });
    expect(res.error).toBeUndefined();
    expect((res.result as { isError?: boolean }).isError).not.toBe(true);
    // -0.5 (ref-minus-half: M), 0 (ref-zero: Z, ref-unchanged), 0.5 (ref-half: H); by name it would be H, M, Z.
    const forwarded = (await backendLine(2)).params as { arguments: { note: string } };
    expect(forwarded.arguments.note).toBe('MZH');
  });

  it('accepts a descriptor whose configSchema is not {type:"object"} and invokes it without config', () => {
    const invoked = readFileSync(join(dir, 'invokes.log'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { name: string; event: string });
    expect(invoked.filter((i) => i.name === 'ref-schema').map((i) => i.event)).toEqual(expect.arrayContaining(['prompts/get', 'tools/call']));
    expect(invoked.some((i) => i.name === 'ref-unchanged' && i.event === 'prompts/get')).toBe(true);
  });

  it('logs tool-allowlist without config as a configuration error at discovery', async () => {
    await waitFor(() => gw.stderr.includes('config error: samples/tool-allowlist'), 10_000, `the config error in stderr:\n${gw.stderr}`);
    expect(gw.stderr).toMatch(
      /config error: samples\/tool-allowlist: no config is set .*config\.allow is required.*overrides\["samples\/tool-allowlist"\]\.config/,
    );
    // Nothing about the reference server's descriptors: none was skipped.
    expect(gw.stderr).not.toMatch(/skipped.*ref-/);
  });
});

describe('CLI list', () => {
  it('lists every reference-shaped descriptor (fractional priority, foreign configSchema) and answers event "*"', () => {
    const run = (...extra: string[]) =>
      spawnSync(process.execPath, [cliPath, 'list', '--server-command', `${process.execPath} ${referencePath}`, ...extra], {
        encoding: 'utf8',
        timeout: 60_000,
      });
    const all = run();
    expect(all.status, all.stderr).toBe(0);
    const names = (JSON.parse(all.stdout) as { interceptors: { name: string }[] }).interceptors.map((d) => d.name);
    expect(names).toEqual(['ref-unchanged', 'ref-half', 'ref-minus-half', 'ref-zero', 'ref-schema']);
    expect(all.stderr).not.toContain('skipped');
    const star = run('--event', '*');
    expect(star.status, star.stderr).toBe(0);
    expect((JSON.parse(star.stdout) as { interceptors: { name: string }[] }).interceptors.map((d) => d.name)).toEqual(['ref-schema']);
  });

  it('reports tool-allowlist without config as a configuration error', () => {
    const res = spawnSync(process.execPath, [cliPath, 'list', '--server-command', `${process.execPath} ${cliPath} serve-samples`], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(res.status, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/config error: 'tool-allowlist': no config is set and its configSchema requires one \(config\.allow is required\)/);
    // Only tool-allowlist: every other sample works without a config.
    expect(res.stderr.match(/config error/g)).toHaveLength(1);
  });
});
