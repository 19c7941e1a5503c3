// Deciding pauses from outside the gateway: its control endpoint (what a console attached to a headless
// gateway uses: own token, the shared Host/Origin guard, live events over SSE) and the console's own API
// (procedures breakpoints.*, pushed pauses.changed events) over a real core running a real gateway.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../src/shared/api/events';
import { MemoryRecorder } from '../../src/shared/trace/execution';
import { Gateway } from '../../src/main/gateway';
import { configSnapshot } from '../../src/main/gateway/record/config-snapshot';
import { gatewayRuntimeFactory } from '../../src/main/services/gateway-adapter';
import type { AppCore } from '../../src/main/services/app-core';
import { dispatcherCalls } from '../app/dispatch';
import { tempDir, testCore } from '../app/helpers';
import { everythingBackend, waitFor } from '../gateway/helpers';
import { breakpointsConfig, connect, nextPause, text } from './helpers';

const TOKEN = 'control-token-0123456789';

describe('the control endpoint of a gateway', { timeout: 120_000 }, () => {
  let gateway: Gateway;
  let recorder: MemoryRecorder;
  let base: string;
  const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

  beforeAll(async () => {
    recorder = new MemoryRecorder();
    gateway = new Gateway(breakpointsConfig([], { control: { port: 0, token: TOKEN } }), { recorder });
    await gateway.start();
    base = gateway.controlUrl!;
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it('refuses requests without its token, or from another origin; never records the token', async () => {
    expect((await fetch(`${base}/paused`)).status).toBe(401);
    expect((await fetch(`${base}/paused`, { headers: { authorization: 'Bearer not-the-token-at-all' } })).status).toBe(401);
    expect((await fetch(`${base}/paused`, { headers: { ...auth, origin: 'http://127.0.0.1:9' } })).status).toBe(403);
    expect(JSON.stringify(configSnapshot(gateway.config))).not.toContain(TOKEN);
  });

  it('sets live breakpoints, streams the pause, takes a decision (refusing an invalid one) that reaches the backend', async () => {
    const put = await fetch(`${base}/breakpoints`, {
      method: 'PUT',
      headers: auth,
      body: JSON.stringify({ live: [{ method: 'tools/call', target: 'echo' }] }),
    });
    expect(put.status).toBe(200);
    expect(((await put.json()) as { live: unknown[] }).live).toHaveLength(1);

    // The event stream, as an attached console reads it.
    const events = await fetch(`${base}/events`, { headers: auth });
    const reader = events.body!.getReader();
    const client = await connect(gateway);
    const paused = nextPause(gateway);
    const call = client.callTool({ name: 'echo', arguments: { message: 'remote' } });
    const view = await paused;
    let streamed = '';
    while (!streamed.includes(view.id)) streamed += new TextDecoder().decode((await reader.read()).value);
    expect(streamed).toContain('"type":"paused"');
    await reader.cancel();

    const listed = (await (await fetch(`${base}/paused`, { headers: auth })).json()) as { id: string }[];
    expect(listed.map((p) => p.id)).toEqual([view.id]);

    const bad = await fetch(`${base}/paused/${view.id}`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ decision: { kind: 'edit', payload: { arguments: {} } } }),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toContain('not valid');

    const ok = await fetch(`${base}/paused/${view.id}`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ decision: { kind: 'edit', payload: { name: 'echo', arguments: { message: 'edited remotely' } } }, by: 'ops console' }),
    });
    expect(ok.status).toBe(200);
    expect(text(await call)).toBe('Echo: edited remotely');
    await waitFor(() => recorder.executions.some((e) => e.id === view.executionId));
    expect(recorder.executions.find((e) => e.id === view.executionId)!.pauses![0]).toMatchObject({ decision: 'edit', by: 'ops console' });

    const gone = await fetch(`${base}/paused/${view.id}`, { method: 'POST', headers: auth, body: JSON.stringify({ decision: { kind: 'continue' } }) });
    expect(gone.status).toBe(404);
    await client.close();
  });
});

describe("the console's breakpoints API", { timeout: 120_000 }, () => {
  const tmp = tempDir('ic-breakpoints-');
  let core: AppCore;
  const { call, fails } = dispatcherCalls(() => core);
  const events: ApiEvent[] = [];

  beforeAll(async () => {
    core = testCore(tmp.dir, { runtimeFactory: gatewayRuntimeFactory });
    core.onEvent((e) => events.push(e));
    await core.start({ demo: false });
    const config = {
      backend: everythingBackend,
      listen: { transport: 'http', port: 0, tokens: { 'token-alice': 'alice' } },
      breakpoints: [{ id: 'from-file', method: 'prompts/get' }],
    };
    await call('gateways.create', { id: 'dbg', config, start: true });
  }, 60_000);
  afterAll(async () => {
    await core?.shutdown();
    tmp.cleanup();
  });

  it('lists paused calls live, pushes pauses.changed, and decides them as "you"', async () => {
    const set = await call<{ config: { id?: string }[]; live: unknown[] }>('breakpoints.set', { id: 'dbg', live: [{ method: 'tools/call', target: 'echo' }] });
    expect(set.config.map((b) => b.id)).toEqual(['from-file']);
    expect(set.live).toHaveLength(1);

    const info = await call<{ listen: { url: string } }>('gateways.get', { id: 'dbg' });
    const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
    const client = new Client({ name: 'api-test', version: '1' }, { capabilities: {} });
    await client.connect(new StreamableHTTPClientTransport(new URL(info.listen.url), { requestInit: { headers: { Authorization: 'Bearer token-alice' } } }));
    const result = client.callTool({ name: 'echo', arguments: { message: 'x' } });
    await waitFor(() => events.some((e) => e.type === 'pauses.changed' && e.opened !== undefined), 20_000, 'pauses.changed opened');
    const [paused] = await call<{ id: string; method: string; target: string; gateway: string }[]>('breakpoints.paused');
    expect(paused).toMatchObject({ gateway: 'dbg', method: 'tools/call', target: 'echo' });

    expect((await fails('breakpoints.decide', { gateway: 'dbg', id: paused!.id, decision: { kind: 'answer', result: { content: 'no' } } })).code).toBe(
      'invalid_input',
    );
    await call('breakpoints.decide', { gateway: 'dbg', id: paused!.id, decision: { kind: 'block', message: 'stopped from the console' } });
    expect(text(await result)).toBe('Blocked by breakpoint/tools/call:echo (request): stopped from the console');
    await waitFor(() => events.some((e) => e.type === 'pauses.changed' && e.resolved?.by === 'you'), 20_000, 'pauses.changed resolved');
    expect(await call('breakpoints.paused')).toEqual([]);
    expect((await fails('breakpoints.decide', { gateway: 'dbg', id: paused!.id, decision: { kind: 'continue' } })).code).toBe('not_found');
    await client.close();
  });

  it('keeps live breakpoints across a restart of the gateway', async () => {
    await call('gateways.restart', { id: 'dbg' });
    const view = await call<{ live: { method: string }[] }>('breakpoints.get', { id: 'dbg' });
    expect(view.live.map((b) => b.method)).toEqual(['tools/call']);
    await call('breakpoints.set', { id: 'dbg', live: [] });
  });
});
