// A headless stdio gateway (the built CLI, as an MCP client's config launches it) paused and decided from
// outside through its control endpoint: by hand (HTTP), and by a console attached to it (its API), where
// the stdio client's call shows in the Paused list and the console's decision reaches the backend.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../src/shared/api/events';
import type { AppCore } from '../../src/main/services/app-core';
import { dispatcherCalls } from '../app/dispatch';
import { tempDir, testCore } from '../app/helpers';
import { LineClient, everythingBackend, gatewayArgs, waitFor, writeConfig } from '../gateway/helpers';

const TOKEN = 'headless-control-token-42';

describe('a headless stdio gateway decided through its control endpoint', { timeout: 120_000 }, () => {
  let gateway: LineClient;
  let base: string;
  const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

  beforeAll(async () => {
    const config = writeConfig({ backend: everythingBackend, control: { port: 0, token: TOKEN }, breakpoints: [{ method: 'tools/call', target: 'echo' }] });
    gateway = new LineClient(gatewayArgs(config));
    await waitFor(() => /control endpoint on (http:\S+)/.test(gateway.stderr), 30_000, `the control URL; stderr:\n${gateway.stderr}`);
    base = /control endpoint on (http:\S+)/.exec(gateway.stderr)![1]!;
    await gateway.initialize();
  }, 60_000);
  afterAll(async () => {
    await gateway?.stop();
  });

  it('lists the paused stdio call and takes an edit that reaches the backend', async () => {
    gateway.send({ id: 7, method: 'tools/call', params: { name: 'echo', arguments: { message: 'from stdio' } } });
    type Paused = { id: string; payload: { arguments: { message: string } }; breakpoint: string };
    let paused: Paused[] = [];
    async function poll() {
      paused = (await (await fetch(`${base}/paused`, { headers: auth })).json()) as Paused[];
    }
    // Polled on purpose: this is what a controller without the event stream does.
    await waitFor(
      async () => {
        await poll();
        return paused.length > 0;
      },
      20_000,
      `a pause (gateway stderr:\n${gateway.stderr})`,
      50,
    );
    expect(paused[0]!.payload.arguments.message).toBe('from stdio');
    const res = await fetch(`${base}/paused/${paused[0]!.id}`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ decision: { kind: 'edit', payload: { name: 'echo', arguments: { message: 'decided remotely' } } } }),
    });
    expect(res.status).toBe(200);
    const response = await gateway.response(7);
    expect((response.result as { content: { text: string }[] }).content[0]!.text).toBe('Echo: decided remotely');
  });

  it('a console attaches to it: the paused stdio call joins its Paused list and its decision reaches the backend', async () => {
    const tmp = tempDir('ic-attach-');
    let core: AppCore | undefined;
    try {
      core = testCore(tmp.dir);
      const events: ApiEvent[] = [];
      core.onEvent((e) => events.push(e));
      const { call, fails } = dispatcherCalls(() => core!);
      expect((await fails('breakpoints.attach', { name: 'remote', url: base, token: 'wrong-token-0123456789' })).code).toBe('failed');
      await call('breakpoints.attach', { name: 'remote', url: base, token: TOKEN });
      expect((await call<{ config: unknown[] }>('breakpoints.get', { id: 'remote' })).config).toHaveLength(1);

      gateway.send({ id: 8, method: 'tools/call', params: { name: 'echo', arguments: { message: 'seen by the console' } } });
      await waitFor(() => events.some((e) => e.type === 'pauses.changed' && e.gateway === 'remote' && e.opened), 20_000, 'the pause in the console');
      const [paused] = await call<{ id: string; gateway: string; payload: { arguments: { message: string } } }[]>('breakpoints.paused');
      expect(paused).toMatchObject({ gateway: 'remote', payload: { arguments: { message: 'seen by the console' } } });
      await call('breakpoints.decide', { gateway: 'remote', id: paused!.id, decision: { kind: 'block', message: 'blocked from an attached console' } });
      const response = await gateway.response(8);
      expect((response.result as { content: { text: string }[] }).content[0]!.text).toBe(
        'Blocked by breakpoint/tools/call:echo (request): blocked from an attached console',
      );
      await waitFor(() => events.some((e) => e.type === 'pauses.changed' && e.resolved?.by === 'you'), 20_000, 'the resolution in the console');
      expect(await call('breakpoints.paused')).toEqual([]);
      await call('breakpoints.detach', { name: 'remote' });
    } finally {
      await core?.shutdown();
      tmp.cleanup();
    }
  });
});
