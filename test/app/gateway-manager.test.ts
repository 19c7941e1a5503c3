// The GatewayManager with the real gateway: configs on disk, start/stop/restart, traffic counted,
// stdio gateways refused, bad configs reported, everything stopped on shutdown.
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../src/shared/api/events';
import { gatewayRuntimeFactory } from '../../src/main/services/gateway-adapter';
import { demoGatewayConfig, DEMO_GATEWAY_ID } from '../../src/main/services/demo-gateway';
import type { AppCore } from '../../src/main/services/app-core';
import { tempDir, testCore } from './helpers';
import { connectHttpClient, firstToken } from './mcp-client';
import { everythingBin } from '../gateway/helpers';
import { waitFor as waitForIt } from '../support/wait-for';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function setup(options: { sqlite?: boolean } = {}): { core: AppCore; dir: string; events: ApiEvent[] } {
  const t = tempDir();
  const core = testCore(t.dir, { runtimeFactory: gatewayRuntimeFactory }, options);
  const events: ApiEvent[] = [];
  core.onEvent((e) => events.push(e));
  cleanups.push(t.cleanup, () => core.shutdown());
  return { core, dir: t.dir, events };
}

async function call<T = unknown>(core: AppCore, name: string, input?: unknown): Promise<T> {
  const r = await core.dispatcher.dispatch(name, input);
  if (!r.ok) throw new Error(`${name}: ${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

// Generous: the suite shares two cores with many child processes; the conditions, not the time, are tested.
const waitFor = <T>(check: () => Promise<T>, what: string) => waitForIt(check, 60_000, what, 100);

describe('GatewayManager (real gateway)', () => {
  it('creates the demo gateway on first start, runs traffic through it and counts it in the SQLite history', { timeout: 120_000 }, async () => {
    const { core, dir, events } = setup({ sqlite: true });
    await core.start();
    const [gw] = await call<{ id: string; status: string; listen: { url: string }; configPath: string }[]>(core, 'gateways.list');
    expect(gw).toMatchObject({ id: DEMO_GATEWAY_ID, status: 'running' });
    expect(gw!.configPath).toBe(`${dir}/gateways/demo.json`);
    const config = JSON.parse(readFileSync(gw!.configPath, 'utf8')) as Record<string, unknown>;

    // The interceptor servers connect at once (eager discovery).
    await waitFor(async () => {
      const [g] = await call<{ interceptorServers: { status: string; interceptorCount?: number }[] }[]>(core, 'gateways.list');
      return g!.interceptorServers[0]!.status === 'connected' && g!.interceptorServers[0]!.interceptorCount! > 0 ? true : undefined;
    }, 'samples connected');

    const client = await connectHttpClient(gw!.listen.url, firstToken(config));
    cleanups.push(() => client.close());
    const echoed = await client.callTool({ name: 'echo', arguments: { message: 'write to bob@example.com' } });
    expect(JSON.stringify(echoed)).toContain('[EMAIL_REDACTED]');
    const blocked = await client.callTool({ name: 'echo', arguments: { message: 'my ssn is 123-45-6789' } });
    expect(blocked.isError).toBe(true);

    const stats = await waitFor(async () => {
      const s = await call<{ counters: { calls: number; blocked: number; mutated: number; p50Ms: number | null }; buckets: { calls: number }[] }>(
        core,
        'gateways.stats',
        { id: 'demo' },
      );
      return s.counters.blocked >= 1 && s.counters.mutated >= 1 ? s : undefined;
    }, 'counters');
    expect(stats.counters.calls).toBeGreaterThanOrEqual(2);
    expect(stats.counters.p50Ms).not.toBeNull();
    // The latency chart's buckets hold the same calls.
    expect(stats.buckets.reduce((n, b) => n + b.calls, 0)).toBe(stats.counters.calls);
    const page = await call<{ items: { gateway: string; event: string; outcome: string }[] }>(core, 'history.query', {
      filter: { gateway: 'demo', outcome: 'blocked' },
    });
    expect(page.items[0]).toMatchObject({ gateway: 'demo', event: 'tools/call', outcome: 'blocked' });
    await waitFor(async () => (events.some((e) => e.type === 'executions.new' && e.gateway === 'demo') ? true : undefined), 'executions.new event');
    expect(events).toContainEqual({ type: 'gateway.status', id: 'demo', status: 'running' });
  });

  it('persists configs, restarts what was running, stops on shutdown', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const first = testCore(t.dir, { runtimeFactory: gatewayRuntimeFactory });
    await first.start({ demo: false });
    const config = await demoGatewayConfig(first.env);
    const created = await call<{ id: string; status: string }>(first, 'gateways.create', { config, id: 'mine', start: true });
    expect(created).toMatchObject({ id: 'mine', status: 'running' });
    const restarted = await call<{ status: string; startedAt: string }>(first, 'gateways.restart', { id: 'mine' });
    expect(restarted.status).toBe('running');
    await first.shutdown();
    expect(first.manager.status('mine').status).toBe('stopped');

    const second = testCore(t.dir, { runtimeFactory: gatewayRuntimeFactory });
    cleanups.push(() => second.shutdown());
    await second.start({ demo: false });
    expect((await call<{ status: string }>(second, 'gateways.get', { id: 'mine' })).status).toBe('running');
    await call(second, 'gateways.stop', { id: 'mine' });
    await call(second, 'gateways.delete', { id: 'mine' });
    expect(await call(second, 'gateways.list')).toEqual([]);
  });

  it('reports invalid configs with paths, refuses to start stdio gateways, answers not_found', async () => {
    const { core } = setup();
    await core.start({ demo: false });
    const bad = await core.dispatcher.dispatch('gateways.create', { config: { backend: { transport: 'stdio', name: 'x' } } });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_config' } });
    expect(!bad.ok && bad.error.message).toContain('backend.command');

    await call(core, 'gateways.create', { id: 'cli-launched', config: { backend: { transport: 'stdio', name: 'b', command: 'true' } } });
    const start = await core.dispatcher.dispatch('gateways.start', { id: 'cli-launched' });
    expect(start).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(!start.ok && start.error.message).toMatch(/Connect a client/);

    const snippets = await call<{ stdio: { claudeDesktop: string; command: string }; http: unknown }>(core, 'gateways.snippets', { id: 'cli-launched' });
    const entry = JSON.parse(snippets.stdio.claudeDesktop).mcpServers['cli-launched'];
    expect(entry.command).toBe(process.execPath);
    expect(entry.args).toEqual([
      expect.stringMatching(/out\/cli\/index\.js$/),
      'gateway',
      '--config',
      expect.stringMatching(/cli-launched\.json$/),
      '--listen',
      'stdio',
      '--gateway-id',
      'cli-launched',
      '--db',
      expect.any(String),
      '--data-dir',
      expect.any(String),
    ]);
    expect(snippets.http).toBeNull();

    expect(await core.dispatcher.dispatch('gateways.stop', { id: 'nope' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(
      await core.dispatcher.dispatch('gateways.create', { id: 'cli-launched', config: { backend: { transport: 'stdio', name: 'b', command: 'true' } } }),
    ).toMatchObject({
      ok: false,
      error: { code: 'conflict' },
    });
  });

  it('a listener that cannot bind fails the gateway with the reason, and the core keeps serving', async () => {
    const { core } = setup();
    await core.start({ demo: false });
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    cleanups.push(() => new Promise<void>((r) => blocker.close(() => r())));
    const port = (blocker.address() as AddressInfo).port;
    const config = { backend: { transport: 'stdio', name: 'b', command: 'true' }, listen: { transport: 'http', port } };
    const created = await core.dispatcher.dispatch('gateways.create', { id: 'busy-port', config, start: true });
    expect(created).toMatchObject({ ok: false, error: { code: 'failed' } });
    expect(!created.ok && created.error.message).toMatch(/EADDRINUSE|in use/i);
    const status = await call<{ status: string; error: string }>(core, 'gateways.status', { id: 'busy-port' });
    expect(status.status).toBe('failed');
    expect(status.error).toMatch(/EADDRINUSE|in use/i);
    expect((await call<unknown[]>(core, 'gateways.list')).length).toBe(1);
  });

  it('imports servers from a client config as gateways fronting them', async () => {
    const { core } = setup();
    await core.start({ demo: false });
    const parsed = await call<{ servers: unknown[] }>(core, 'gateways.parseClientConfig', {
      text: JSON.stringify({ mcpServers: { everything: { command: 'definitely-not-installed-xyz', args: ['server.js', 'stdio'] } } }),
    });
    const result = await call<{
      gateways: { id: string; status: string; backend: { target: string }; interceptorServers: { name: string }[]; listen: { transport: string } }[];
    }>(core, 'gateways.importServers', { servers: parsed.servers, withSamples: true });
    const created = result.gateways;
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ id: 'everything', backend: { target: 'definitely-not-installed-xyz server.js stdio' }, listen: { transport: 'http' } });
    expect(created[0]!.interceptorServers.map((s) => s.name)).toEqual(['samples']);
    const bad = await core.dispatcher.dispatch('gateways.parseClientConfig', { text: '{"nothing": true}' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });

  it(
    'an import starts the gateways whose commands exist, leaves the others stopped saying why, and gives the config to paste back',
    { timeout: 60_000 },
    async () => {
      const { core } = setup();
      await core.start({ demo: false });
      const text = JSON.stringify({
        mcpServers: {
          present: { command: process.execPath, args: [everythingBin, 'stdio'] },
          missing: { command: 'definitely-not-installed-xyz', args: ['--stdio'] },
        },
      });
      const parsed = await call<{ servers: unknown[] }>(core, 'gateways.parseClientConfig', { text });
      const result = await call<{
        gateways: { id: string; status: string }[];
        notStarted: { id: string; reason: string }[];
        clientConfig: string;
      }>(core, 'gateways.importServers', { servers: parsed.servers, withSamples: true });
      expect(result.gateways.map((g) => [g.id, g.status])).toEqual([
        ['present', 'running'],
        ['missing', 'stopped'],
      ]);
      expect(result.notStarted).toEqual([{ id: 'missing', reason: expect.stringContaining('"definitely-not-installed-xyz" is not on this PATH') }]);
      // The samples' allowlist cannot know the server's tools: off, rather than a config error on every gateway.
      const config = await call<{ config: { overrides: Record<string, unknown> } }>(core, 'gateways.get', { id: 'present' });
      expect(config.config.overrides).toEqual({ 'samples/tool-allowlist': { enabled: false } });
      const pasted = JSON.parse(result.clientConfig) as { mcpServers: Record<string, { command: string; args: string[] }> };
      expect(Object.keys(pasted.mcpServers)).toEqual(['present', 'missing']);
      expect(pasted.mcpServers.present!.args).toEqual(expect.arrayContaining(['gateway', '--listen', 'stdio', '--gateway-id', 'present']));
      const vscode = await call<{ clientConfig: string }>(core, 'gateways.importServers', {
        servers: parsed.servers.slice(1),
        withSamples: false,
        format: 'vscode',
      });
      expect(Object.keys((JSON.parse(vscode.clientConfig) as { servers: object }).servers)).toEqual(['missing']);
    },
  );

  it('lists the shipped examples and creates one with local commands', async () => {
    const { core } = setup();
    await core.start({ demo: false });
    const examples = await call<{ file: string; config: Record<string, unknown> }[]>(core, 'gateways.examples');
    expect(examples.map((e) => e.file)).toContain('http-listener.json');
    const ex = examples.find((e) => e.file === 'http-listener.json')!;
    const created = await call<{ id: string; interceptorServers: { target: string }[]; backend: { target: string } }>(core, 'gateways.create', {
      config: ex.config,
      localize: true,
    });
    expect(created.interceptorServers[0]!.target).toContain('out/cli/index.js serve-samples');
    expect(created.backend.target).toContain('server-everything/dist/index.js stdio');
  });

  it('a gateway made from the http-listener example refuses its README placeholder tokens: each is a fresh random one', { timeout: 120_000 }, async () => {
    const { core } = setup();
    await core.start({ demo: false });
    const examples = await call<{ file: string; config: { listen: Record<string, unknown> } }[]>(core, 'gateways.examples');
    const ex = examples.find((e) => e.file === 'http-listener.json')!;
    const placeholders = Object.keys(ex.config.listen.tokens as Record<string, string>);
    expect(placeholders).toContain('change-me-alice-token');
    const config = { ...ex.config, listen: { ...ex.config.listen, port: 0 } };
    await call(core, 'gateways.create', { id: 'from-example', config, localize: true, start: true });
    const made = await call<{ status: string; listen: { url: string }; config: { listen: { tokens: Record<string, string> } } }>(core, 'gateways.get', {
      id: 'from-example',
    });
    expect(made.status).toBe('running');
    const tokens = made.config.listen.tokens;
    expect(Object.values(tokens).sort()).toEqual(['alice', 'ci-bot']);
    for (const t of Object.keys(tokens)) {
      expect(placeholders).not.toContain(t);
      expect(t).toMatch(/^[\w-]{24,}$/);
    }
    // The running listener: the well-known token is refused, the generated one admitted.
    const init = (token: string) =>
      fetch(made.listen.url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
        }),
      });
    expect((await init('change-me-alice-token')).status).toBe(401);
    const client = await connectHttpClient(made.listen.url, Object.keys(tokens)[0]!);
    cleanups.push(() => client.close());
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });
});
