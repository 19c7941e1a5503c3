// The Chain screen's API over a real core: the real gateway runtime, the interceptor-server pool and the
// chain service, the sample interceptor server and server-everything as real child processes. The order
// on a draft comes from the chain engine with skip reasons; widening overrides are refused with their
// path; save writes the text byte for byte and hot-reloads a running gateway (recorded); probes connect.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../src/main/services/app-core';
import { gatewayRuntimeFactory } from '../../src/main/services/gateway-adapter';
import { InterceptorServerPool } from '../../src/main/services/pool/pool';
import { PoolChainService } from '../../src/main/services/pool/chain-service';
import { silentLogger } from '../../src/main/services/environment';
import { tempDir, testCore } from '../app/helpers';
import { cliPath, everythingBackend } from '../gateway/helpers';
import { waitFor } from '../support/wait-for';

const samples = { transport: 'stdio', name: 'samples', command: process.execPath, arguments: [cliPath, 'serve-samples'] };
const base = {
  serverInfo: { name: 'Chain API', version: '1.0.0' },
  backend: everythingBackend,
  staticInterceptors: [samples],
  listen: { transport: 'http', host: '127.0.0.1', port: 0 },
  overrides: { 'samples/tool-allowlist': { enabled: false } },
};

async function call<T = unknown>(core: AppCore, name: string, input?: unknown): Promise<T> {
  const r = await core.dispatcher.dispatch(name, input);
  if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
  return r.value as T;
}

type Entry = { id: string; pass: string; priority: number; skipped?: string; skipDetail?: string; mode: string };

describe('Chain screen API', () => {
  const tmp = tempDir('ic-chain-');
  let core: AppCore;
  const order = (config: unknown, event = 'tools/call', phase = 'request') =>
    call<{ interceptors: Entry[] }>(core, 'chain.order', { id: 'd', event, phase, config }).then((r) => r.interceptors);

  beforeAll(async () => {
    const pool = new InterceptorServerPool(silentLogger);
    core = testCore(tmp.dir, { runtimeFactory: gatewayRuntimeFactory, pool, chain: new PoolChainService(pool) });
    await core.start({ demo: false });
    await call(core, 'gateways.create', { id: 'd', config: base, start: true });
  }, 60_000);

  afterAll(async () => {
    await core?.shutdown();
    tmp.cleanup();
  });

  it('loads the config file as text, exactly as on disk', async () => {
    const doc = await call<{ text: string; configPath: string; info: { status: string } }>(core, 'chain.load', { id: 'd' });
    expect(doc.text).toBe(readFileSync(doc.configPath, 'utf8'));
    expect(doc.info.status).toBe('running');
  });

  it('discovers every server of a draft, with connection errors in place', async () => {
    const draft = { ...base, staticInterceptors: [samples, { transport: 'stdio', name: 'broken', command: '/nonexistent/interceptor-server' }] };
    const { servers } = await call<{ servers: { name: string; ok: boolean; error?: string; interceptors: { name: string }[] }[] }>(core, 'chain.discover', {
      id: 'd',
      config: draft,
    });
    expect(servers.map((s) => [s.name, s.ok])).toEqual([
      ['samples', true],
      ['broken', false],
    ]);
    expect(servers[0]!.interceptors.map((i) => i.name)).toContain('email-redactor');
    expect(servers[1]!.error).toMatch(/broken|nonexistent|ENOENT|spawn/i);
  }, 30_000);

  it('orders a draft with the chain engine: priority overrides reorder mutations, skips carry reasons', async () => {
    const before = await order(base);
    const mutations = before.filter((e) => e.pass === 'mutation' && !e.skipped).map((e) => e.id);
    expect(mutations).toEqual(['samples/secretless-redactor', 'samples/email-redactor']);
    expect(before.find((e) => e.id === 'samples/tool-allowlist')).toMatchObject({ skipped: 'disabled' });

    const reordered = await order({ ...base, overrides: { ...base.overrides, 'samples/email-redactor': { priorityHint: -2_000_000, mode: 'audit' } } });
    expect(reordered.filter((e) => e.pass === 'mutation' && !e.skipped).map((e) => e.id)).toEqual(['samples/email-redactor', 'samples/secretless-redactor']);
    expect(reordered.find((e) => e.id === 'samples/email-redactor')).toMatchObject({ priority: -2_000_000, mode: 'audit' });

    const response = await order(base, 'tools/call', 'response');
    expect(response.find((e) => e.id === 'samples/email-redactor')).toMatchObject({ skipped: 'other-phase' });
    const other = await order(base, 'resources/list', 'request');
    expect(other.find((e) => e.id === 'samples/email-redactor')).toMatchObject({ skipped: 'event-not-hooked' });
  }, 30_000);

  it('reports tool-allowlist without config as a configuration error in the palette and skips it instead of blocking', async () => {
    type Discovery = { servers: { name: string; configErrors?: { interceptor: string; message: string }[] }[] };
    const draft = { ...base, overrides: {} };
    const { servers } = await call<Discovery>(core, 'chain.discover', { id: 'd', config: draft });
    expect(servers[0]!.configErrors).toEqual([
      {
        interceptor: 'tool-allowlist',
        message: expect.stringMatching(/^samples\/tool-allowlist: no config is set .*\(config\.allow is required\); it is skipped/),
      },
    ]);
    expect((await order(draft)).find((e) => e.id === 'samples/tool-allowlist')).toMatchObject({ skipped: 'config-invalid' });
    const configured = { ...base, overrides: { 'samples/tool-allowlist': { config: { allow: ['echo'] } } } };
    expect((await call<Discovery>(core, 'chain.discover', { id: 'd', config: configured })).servers[0]!.configErrors).toBeUndefined();
  }, 30_000);

  it('shows the configuration error on the gateway card (interceptor-server status)', async () => {
    await call(core, 'gateways.create', { id: 'cfg', config: { ...base, overrides: {} }, start: true });
    type Card = { id: string; interceptorServers: { name: string; configErrors?: string[] }[] };
    const card = await waitFor(
      async () => {
        const now = (await call<Card[]>(core, 'gateways.list')).find((g) => g.id === 'cfg');
        return now?.interceptorServers[0]?.configErrors ? now : undefined;
      },
      30_000,
      'a configuration error on the card',
      100,
    );
    expect(card.interceptorServers[0]!.configErrors).toEqual([expect.stringMatching(/^samples\/tool-allowlist: no config is set/)]);
    await call(core, 'gateways.stop', { id: 'cfg' });
  }, 60_000);

  it('refuses a widening hooks override with the engine reason and its JSON path', async () => {
    const widening = { ...base, overrides: { 'samples/email-redactor': { hooks: [{ events: ['tools/call', 'resources/read'], phase: 'request' }] } } };
    const issues = await call<{ configPath: string; kind: string; message: string }[]>(core, 'chain.checkOverrides', { id: 'd', config: widening });
    expect(issues).toEqual([
      expect.objectContaining({
        kind: 'widening',
        configPath: 'overrides["samples/email-redactor"].hooks[0].events[1]',
        message: expect.stringMatching(/widens its hooks: event 'resources\/read' is not declared/),
      }),
    ]);
    const narrowing = { ...base, overrides: { 'samples/request-logger': { hooks: [{ events: ['tools/call'], phase: 'request' }] } } };
    expect(await call(core, 'chain.checkOverrides', { id: 'd', config: narrowing })).toEqual([]);

    const file = join(tmp.dir, 'gateways', 'd.json');
    const onDisk = readFileSync(file, 'utf8');
    await expect(call(core, 'chain.save', { id: 'd', text: JSON.stringify(widening, null, 2) })).rejects.toThrow(
      /Nothing was saved: overrides\["samples\/email-redactor"\]\.hooks\[0\]\.events\[1\]/,
    );
    await expect(call(core, 'chain.save', { id: 'd', text: '{"backend": {"transport": "stdio"}}' })).rejects.toThrow(/Nothing was saved.*backend\.name/s);
    expect(readFileSync(file, 'utf8')).toBe(onDisk);
  }, 30_000);

  it('saves text byte for byte (adding only a missing final newline) and hot-reloads the running gateway', async () => {
    const events: string[] = [];
    const off = core.onEvent((e) => events.push(e.type));
    // Hand-formatted text: the file gets these very bytes, not a re-serialisation.
    const text = JSON.stringify({ ...base, overrides: { 'samples/pii-validator': { mode: 'audit' } } }, null, 4);
    const saved = await call<{ text: string; configPath: string; reload: { restarted: boolean } | null; info: { status: string; lastReload?: unknown } }>(
      core,
      'chain.save',
      { id: 'd', text },
    );
    off();
    expect(saved.text).toBe(`${text}\n`);
    expect(readFileSync(saved.configPath, 'utf8')).toBe(`${text}\n`);
    expect(saved.reload).toMatchObject({ restarted: false });
    expect(saved.info.status).toBe('running');
    expect(events).toContain('gateway.reloaded');
    const reloads = await call<{ restarted: boolean }[]>(core, 'chain.reloads', { id: 'd' });
    expect(reloads[0]).toMatchObject({ restarted: false });
    expect((await call<{ text: string }>(core, 'chain.load', { id: 'd' })).text).toBe(`${text}\n`);
  }, 30_000);

  it('probes a backend and an interceptor server for the wizard, and reports a bad one clearly', async () => {
    const backend = await call<{ ok: boolean; toolCount: number; serverInfo: { name: string } }>(core, 'chain.testBackend', { entry: everythingBackend });
    expect(backend.ok).toBe(true);
    expect(backend.toolCount).toBeGreaterThan(5);
    const entry = await call<Record<string, unknown>>(core, 'chain.samplesEntry', { name: 'samples' });
    const server = await call<{ ok: boolean; interceptors: { name: string }[] }>(core, 'chain.testServer', { entry });
    expect(server.ok).toBe(true);
    expect(server.interceptors.map((i) => i.name)).toContain('pii-validator');
    const bad = await call<{ ok: boolean; error: string }>(core, 'chain.testServer', {
      entry: { transport: 'http', name: 'nowhere', endpoint: 'http://127.0.0.1:9/mcp' },
    });
    expect(bad.ok).toBe(false);
    expect(bad.error).toBeTruthy();
    await expect(call(core, 'chain.testBackend', { entry: { transport: 'stdio', name: 'x' } })).rejects.toThrow(/backend entry is invalid: command/);
  }, 60_000);
});
