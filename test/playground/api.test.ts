// The Playground's API over the real parts: the demo gateway (server-everything + the sample interceptor
// server over stdio), the app's interceptor-server pool, the chain engine, the built-in MCP client and
// failure simulation — all through the validating dispatcher, as the renderer calls them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEnvironment, realPorts } from '../../src/main/services/bootstrap';
import { createAppCore, type AppCore } from '../../src/main/services/app-core';
import { silentLogger } from '../../src/main/services/environment';
import { serverEverythingEntry } from '../../src/main/services/examples';
import { dispatcherCalls } from '../app/dispatch';
import { repoRoot, tempDir } from '../app/helpers';
import { waitFor } from '../support/wait-for';

let core: AppCore;
let cleanup: () => void;

const { call, fails } = dispatcherCalls(() => core);

/** Polls history until `filter` finds something: the store writes in batches, off the gateway's hot path. */
async function history<T extends { id: string }>(filter: Record<string, unknown>): Promise<T[]> {
  return waitFor(
    async () => {
      const page = await call<{ items: T[] }>('history.query', { filter });
      return page.items.length > 0 ? page.items : undefined;
    },
    10_000,
    `history to find ${JSON.stringify(filter)}`,
    50,
  );
}

const ssnCall = { name: 'echo', arguments: { message: 'my ssn is 123-45-6789' } };

beforeAll(async () => {
  const t = tempDir('ic-playground-');
  cleanup = t.cleanup;
  const env = buildEnvironment({ mode: 'test', packageRoot: repoRoot, dataDir: t.dir, logger: silentLogger });
  core = createAppCore(env, await realPorts(env));
  await core.start({ demo: true });
  const info = await call<{ status: string }>('gateways.get', { id: 'demo' });
  expect(info.status).toBe('running');
  // On a loaded machine the gateway's first connection to its interceptor server can miss its deadline;
  // the gateway reconnects on its own, and these tests are about the Playground, so wait for that.
  await waitConnected(90_000);
}, 120_000);

async function waitConnected(ms: number): Promise<void> {
  await waitFor(
    async () => {
      const info = await call<{ interceptorServers: { status: string; error?: string }[] }>('gateways.get', { id: 'demo' });
      return info.interceptorServers.every((s) => s.status === 'connected');
    },
    ms,
    "the demo gateway's interceptor servers to connect",
    200,
  );
}

afterAll(async () => {
  await core?.shutdown();
  cleanup?.();
});

describe('servers.discover / servers.invoke', () => {
  it('discovers the sample interceptors with their descriptors', async () => {
    const view = await call<{ interceptors: { name: string; type: string }[] }>('servers.discover', { id: 'demo', server: 'samples' });
    const names = view.interceptors.map((i) => i.name);
    expect(names).toEqual(expect.arrayContaining(['pii-validator', 'email-redactor', 'request-logger']));
  }, 60_000);

  it('invokes email-redactor and returns the mutation with the raw JSON-RPC exchange', async () => {
    const out = await call<{
      result: Record<string, unknown>;
      rpc: { request: Record<string, unknown>; response: Record<string, unknown> };
      durationMs: number;
    }>('servers.invoke', {
      id: 'demo',
      server: 'samples',
      name: 'email-redactor',
      event: 'tools/call',
      phase: 'request',
      payload: { name: 'echo', arguments: { message: 'mail bob@example.com' } },
      context: { traceId: 'trace-1', sessionId: 'sess-1', principal: { type: 'user', id: 'alice' } },
    });
    expect(out.result).toMatchObject({ type: 'mutation', modified: true, payload: { arguments: { message: 'mail [EMAIL_REDACTED]' } } });
    expect(out.rpc.request).toMatchObject({
      jsonrpc: '2.0',
      method: 'interceptor/invoke',
      params: { name: 'email-redactor', context: { traceId: 'trace-1' } },
    });
    expect(out.rpc.response.id).toBe(out.rpc.request.id);
    expect((out.rpc.response.result as Record<string, unknown>).modified).toBe(true);
    expect(out.durationMs).toBeGreaterThan(0);
  });

  it('invokes pii-validator on an SSN: a blocking verdict with a JSON path', async () => {
    const out = await call<{ result: Record<string, unknown> }>('servers.invoke', {
      id: 'demo',
      server: 'samples',
      name: 'pii-validator',
      event: 'tools/call',
      phase: 'request',
      payload: ssnCall,
    });
    expect(out.result).toMatchObject({ valid: false, severity: 'error', messages: [{ path: '$.arguments', severity: 'error' }] });
  });

  it('reports an unknown interceptor as a JSON-RPC refusal with the raw error response', async () => {
    const out = await call<{ error: { kind: string; code?: number }; rpc: { response: { error: { code: number } } } }>('servers.invoke', {
      id: 'demo',
      server: 'samples',
      name: 'no-such',
      event: 'tools/call',
      phase: 'request',
      payload: {},
    });
    expect(out.error.kind).toBe('rpc');
    expect(out.rpc.response.error.code).toBe(-32602);
  });

  it('names the servers a gateway has when asked for another', async () => {
    const err = await fails('servers.discover', { id: 'demo', server: 'nope' });
    expect(err.code).toBe('not_found');
    expect(err.message).toContain('"samples"');
  });
});

describe('chain.order / chain.dryRun', () => {
  it('orders the tools/call request chain with the engine (mutations first) and lists skips', async () => {
    const out = await call<{ interceptors: { id: string; pass: string; skipped?: string }[] }>('chain.order', {
      id: 'demo',
      event: 'tools/call',
      phase: 'request',
    });
    const active = out.interceptors.filter((i) => !i.skipped);
    expect(active[0]?.pass).toBe('mutation');
    expect(active.map((i) => i.id)).toEqual(expect.arrayContaining(['samples/email-redactor', 'samples/pii-validator', 'samples/request-logger']));
    const response = await call<{ interceptors: { id: string; skipped?: string }[] }>('chain.order', { id: 'demo', event: 'tools/call', phase: 'response' });
    expect(response.interceptors.find((i) => i.id === 'samples/email-redactor')?.skipped).toBe('other-phase');
  });

  it('dry-runs the whole chain with no backend: every step, shadow and skip reasons', async () => {
    const trace = await call<{ decision: string; steps: { id: string; outcome: string; shadow: boolean; skipped?: string }[]; finalPayload: unknown }>(
      'chain.dryRun',
      { id: 'demo', event: 'tools/call', phase: 'request', payload: { name: 'echo', arguments: { message: 'hi carol@example.com' } } },
    );
    expect(trace.decision).toBe('allow');
    const byId = new Map(trace.steps.map((s) => [s.id, s]));
    expect(byId.get('samples/email-redactor')?.outcome).toBe('mutated');
    expect(byId.get('samples/pii-validator')?.outcome).toBe('allowed');
    expect(byId.get('samples/tool-allowlist')?.shadow).toBe(true);
    expect(byId.get('samples/request-logger')?.outcome).toBe('recorded');
    expect(JSON.stringify(trace.finalPayload)).toContain('[EMAIL_REDACTED]');
    const response = await call<{ steps: { id: string; skipped?: string }[] }>('chain.dryRun', {
      id: 'demo',
      event: 'tools/call',
      phase: 'response',
      payload: { content: [{ type: 'text', text: 'Echo: hi' }] },
    });
    expect(response.steps.find((s) => s.id === 'samples/pii-validator')?.skipped).toBe('other-phase');
  });

  it('dry-run blocks on an SSN and says who blocked', async () => {
    const trace = await call<{ decision: string; blockedBy: { interceptor: string } }>('chain.dryRun', {
      id: 'demo',
      event: 'tools/call',
      phase: 'request',
      payload: ssnCall,
    });
    expect(trace.decision).toBe('block');
    expect(trace.blockedBy.interceptor).toBe('pii-validator');
  });
});

describe('built-in client and failure simulation', () => {
  it('calls echo through the demo gateway; the call is in history', async () => {
    const session = await call<{ sessionId: string; serverInfo: { name: string } }>('client.connect', { target: { kind: 'gateway', id: 'demo' } });
    expect(session.serverInfo.name).toBe('Demo gateway');
    const catalog = await call<{ tools: { name: string }[]; resourceTemplates: unknown[]; prompts: unknown[] }>('client.list', {
      sessionId: session.sessionId,
    });
    expect(catalog.tools.map((t) => t.name)).toContain('echo');
    expect(catalog.prompts.length).toBeGreaterThan(0);
    const out = await call<{ result: { content: { text: string }[] } }>('client.callTool', {
      sessionId: session.sessionId,
      name: 'echo',
      arguments: { message: 'playground says hi to dave@example.com' },
    });
    expect(out.result.content[0]?.text).toContain('[EMAIL_REDACTED]');
    // The store writes in batches, off the gateway's hot path.
    const items = await history<{ id: string; event: string; outcome: string }>({ gateway: 'demo', target: 'echo', search: 'dave' });
    expect(items.some((e) => e.event === 'tools/call' && e.outcome === 'mutated')).toBe(true);
    // Prompts and resources through the gateway too (prompts/get and resources/read are intercepted events).
    const prompts = catalog.prompts as { name: string; arguments?: { required?: boolean }[] }[];
    const simple = prompts.find((p) => !(p.arguments ?? []).some((a) => a.required));
    const prompt = await call<{ result: { messages: unknown[] } }>('client.getPrompt', { sessionId: session.sessionId, name: simple!.name });
    expect(prompt.result.messages.length).toBeGreaterThan(0);
    const { resources } = await call<{ resources: { uri: string }[] }>('client.list', { sessionId: session.sessionId });
    const read = await call<{ result: { contents: { uri: string }[] } }>('client.readResource', { sessionId: session.sessionId, uri: resources[0]!.uri });
    expect(read.result.contents[0]?.uri).toBe(resources[0]!.uri);
    // An unknown tool is the server's answer to render (isError), not an API failure.
    const unknown = await call<{ result: { isError?: boolean; content: { text: string }[] } }>('client.callTool', {
      sessionId: session.sessionId,
      name: 'no-such-tool',
    });
    expect(unknown.result.isError).toBe(true);
    expect(unknown.result.content[0]?.text).toContain('no-such-tool');
    await call('client.disconnect', { sessionId: session.sessionId });
    expect(await call<unknown[]>('client.sessions')).toEqual([]);
    expect((await fails('client.list', { sessionId: session.sessionId })).code).toBe('not_found');
  });

  it('a crash armed on the fail-closed pii-validator blocks the next call, recorded as simulated', async () => {
    const sim = await call<{ id: string; remaining: number }>('simulation.arm', {
      id: 'demo',
      server: 'samples',
      name: 'pii-validator',
      kind: 'crash',
      count: 1,
    });
    expect(sim.remaining).toBe(1);
    expect(await call<unknown[]>('simulation.list', { id: 'demo' })).toHaveLength(1);
    const session = await call<{ sessionId: string }>('client.connect', { target: { kind: 'gateway', id: 'demo' } });
    const blocked = await call<{ result: { isError?: boolean; content: { text: string }[] } }>('client.callTool', {
      sessionId: session.sessionId,
      name: 'echo',
      arguments: { message: 'harmless' },
    });
    expect(blocked.result.isError).toBe(true);
    expect(blocked.result.content[0]?.text).toContain('pii-validator');
    expect(await call<unknown[]>('simulation.list', { id: 'demo' })).toHaveLength(0);
    const blockedItems = await history<{ id: string }>({ gateway: 'demo', outcome: 'blocked', search: 'harmless' });
    const detail = await call<{ simulated?: boolean; requestTrace: { steps: { name: string; simulated?: boolean }[] } }>('history.detail', {
      executionId: blockedItems[0]!.id,
    });
    expect(detail.simulated).toBe(true);
    expect(detail.requestTrace.steps.find((s) => s.name === 'pii-validator')?.simulated).toBe(true);
    // Disarmed after one: the next harmless call goes through.
    const ok = await call<{ result: { isError?: boolean } }>('client.callTool', {
      sessionId: session.sessionId,
      name: 'echo',
      arguments: { message: 'harmless' },
    });
    expect(ok.result.isError).toBeFalsy();
  });

  it('a simulated timeout of a sink never blocks: the call goes through, the step is simulated', async () => {
    // Only for tools/call: the client declares roots, so server-everything's roots/list request after the
    // handshake also runs through request-logger and would take a simulation armed for any event.
    await call('simulation.arm', { id: 'demo', server: 'samples', name: 'request-logger', kind: 'timeout', count: 1, event: 'tools/call', phase: 'request' });
    const session = await call<{ sessionId: string }>('client.connect', { target: { kind: 'gateway', id: 'demo' } });
    const out = await call<{ result: { isError?: boolean; content: { text: string }[] } }>('client.callTool', {
      sessionId: session.sessionId,
      name: 'echo',
      arguments: { message: 'sinkprobe' },
    });
    expect(out.result.isError).toBeFalsy();
    const [item] = await history<{ id: string; outcome: string }>({ gateway: 'demo', search: 'sinkprobe' });
    const detail = await call<{ simulated?: boolean; outcome: string; requestTrace: { steps: { name: string; simulated?: boolean; outcome: string }[] } }>(
      'history.detail',
      { executionId: item!.id },
    );
    expect(detail.simulated).toBe(true);
    expect(detail.requestTrace.steps.find((s) => s.name === 'request-logger')).toMatchObject({ simulated: true, outcome: 'not-recorded' });
    await call('client.disconnect', { sessionId: session.sessionId });
  });

  it('stopping a gateway disarms its simulations', async () => {
    await call('simulation.arm', { id: 'demo', server: 'samples', name: 'pii-validator', kind: 'crash', count: 3 });
    await call('gateways.stop', { id: 'demo' });
    expect(await call<unknown[]>('simulation.list', { id: 'demo' })).toEqual([]);
    expect((await fails('simulation.arm', { id: 'demo', server: 'samples', name: 'pii-validator', kind: 'crash' })).code).toBe('conflict');
    expect((await fails('client.connect', { target: { kind: 'gateway', id: 'demo' } })).message).toContain('start it first');
    await call('gateways.start', { id: 'demo' });
    await waitConnected(90_000);
  }, 120_000);

  it('refuses to arm a simulation on a stopped or unknown gateway', async () => {
    expect((await fails('simulation.arm', { id: 'ghost', server: 'samples', name: 'x', kind: 'timeout' })).code).toBe('not_found');
  });

  it('connects directly to a server by command line', async () => {
    // server-everything is a devDependency: always installed where the tests run.
    const everything = serverEverythingEntry();
    expect(everything, '@modelcontextprotocol/server-everything is not installed').toBeDefined();
    const session = await call<{ sessionId: string }>('client.connect', {
      target: { kind: 'stdio', command: `${JSON.stringify(process.execPath)} ${JSON.stringify(everything)} stdio` },
    });
    const catalog = await call<{ tools: { name: string }[] }>('client.list', { sessionId: session.sessionId });
    expect(catalog.tools.map((t) => t.name)).toContain('echo');
    await call('client.disconnect', { sessionId: session.sessionId });
  });

  it('explains a command line that does not start', async () => {
    const err = await fails('client.connect', { target: { kind: 'stdio', command: 'definitely-not-a-command-xyz' } });
    expect(err.code).toBe('failed');
    expect(err.message).toContain('definitely-not-a-command-xyz');
  });
});
