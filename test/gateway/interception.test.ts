// Interception end to end with real parts: server-everything as the backend, the sample interceptor server
// (`interceptor-console serve-samples` over stdio) as static and per-principal servers, a v2 client over the
// HTTP listener. Email redacted before the backend sees it, SSN blocked (A9, both shapes), the sink on every
// event, principal-selected dynamic servers, the exposed interceptor protocol, and A8 on a crashed server.
import { spawn, type ChildProcess } from 'node:child_process';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGatewayConfig, type GatewayConfigInput } from '../../src/shared/config';
import { MemoryRecorder } from '../../src/shared/trace/execution';
import { Gateway } from '../../src/main/gateway';
import { cliPath, everythingBackend, waitFor } from './helpers';

const samples = (name: string, extra: Record<string, unknown> = {}) => ({
  transport: 'stdio' as const,
  name,
  command: process.execPath,
  arguments: [cliPath, 'serve-samples'],
  ...extra,
});

function configFor(input: Partial<GatewayConfigInput>) {
  const parsed = parseGatewayConfig({
    backend: everythingBackend,
    staticInterceptors: [samples('samples')],
    dynamicInterceptors: { Alice: [samples('alice-samples')] },
    listen: { transport: 'http', port: 0, tokens: { 'token-alice': 'alice', 'token-bob': 'bob' } },
    exposeInterceptorProtocol: true,
    // tool-allowlist needs an explicit allowlist (A12 config); allow every tool here.
    overrides: Object.fromEntries(['samples', 'alice-samples', 'guard'].map((s) => [`${s}/tool-allowlist`, { config: { allow: ['*'] } }])),
    ...input,
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.config;
}

async function connect(gateway: Gateway, token: string): Promise<Client> {
  const client = new Client({ name: 'interception-test', version: '1.0.0' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url!), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

const text = (r: unknown) => ((r as { content: { text?: string }[] }).content[0]?.text ?? '') as string;

describe('interception through the gateway', { timeout: 90_000 }, () => {
  let gateway: Gateway;
  let recorder: MemoryRecorder;
  let bob: Client;

  beforeAll(async () => {
    recorder = new MemoryRecorder();
    gateway = new Gateway(configFor({}), { recorder });
    await gateway.start();
    bob = await connect(gateway, 'token-bob');
  });
  afterAll(async () => {
    await bob?.close();
    await gateway?.stop();
  });

  it('redacts an email before the backend sees it (the backend echoes the redacted text)', async () => {
    const result = await bob.callTool({ name: 'echo', arguments: { message: 'write to alice@example.com today' } });
    expect(text(result)).toBe('Echo: write to [EMAIL_REDACTED] today');
    await gateway.recordsSettled();
    const rec = recorder.executions.findLast((e) => e.event === 'tools/call')!;
    expect(rec.outcome).toBe('mutated');
    expect(JSON.stringify(rec.requestReceived)).toContain('alice@example.com');
    expect(JSON.stringify(rec.requestForwarded)).not.toContain('alice@example.com');
    expect(rec.requestTrace?.steps.find((s) => s.id === 'samples/email-redactor')?.outcome).toBe('mutated');
  });

  it('blocks a call mentioning an SSN with an isError result naming pii-validator (A9 default)', async () => {
    const result = await bob.callTool({ name: 'echo', arguments: { message: 'my SSN is 123-45-6789' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('Blocked by samples/pii-validator (request): Payload may contain Social Security Number data');
    const rec = recorder.executions.findLast((e) => e.event === 'tools/call')!;
    expect(rec.outcome).toBe('blocked');
    expect(rec.blockedBy).toMatchObject({ server: 'samples', interceptor: 'pii-validator', phase: 'request' });
    expect(rec.requestForwarded).toBeUndefined();
  });

  it('runs the sink on every intercepted event, in both phases', async () => {
    await bob.listTools();
    await bob.listPrompts();
    await bob.readResource({ uri: (await bob.listResources()).resources[0]!.uri });
    await gateway.recordsSettled(); // the response phase's sinks end after the answers
    const allowed = recorder.executions.filter((e) => e.outcome !== 'blocked' && e.requestTrace);
    expect(new Set(allowed.map((e) => e.event))).toEqual(new Set(['tools/call', 'tools/list', 'prompts/list', 'resources/list', 'resources/read']));
    for (const e of allowed) {
      for (const trace of [e.requestTrace, e.responseTrace]) {
        expect(trace?.steps.find((s) => s.id === 'samples/request-logger')?.outcome, `${e.event} ${trace?.phase}`).toBe('recorded');
      }
    }
    // The invoke context carried the session and the trace id.
    const session = recorder.sessions.at(-1)!;
    expect(allowed.every((e) => e.sessionId === session.id)).toBe(true);
    expect(session.principal).toEqual({ type: 'user', id: 'bob' });
  });

  it("adds the principal's dynamic interceptor servers (case-insensitive keys)", async () => {
    const alice = await connect(gateway, 'token-alice');
    try {
      await alice.callTool({ name: 'echo', arguments: { message: 'hi' } });
      await gateway.recordsSettled();
      const rec = recorder.executions.findLast((e) => e.event === 'tools/call')!;
      const servers = new Set(rec.requestTrace!.steps.map((s) => s.server));
      expect(servers).toEqual(new Set(['samples', 'alice-samples']));
      // The exposed protocol: the merged list, and an ambiguous name is refused.
      const list = await alice.request(
        { method: 'interceptors/list', params: {} },
        z.looseObject({ interceptors: z.array(z.looseObject({ name: z.string() })) }),
      );
      expect(list.interceptors.filter((d) => d.name === 'pii-validator')).toHaveLength(2);
      await expect(
        alice.request({ method: 'interceptor/invoke', params: { name: 'pii-validator', event: 'tools/call', phase: 'request', payload: {} } }, z.unknown()),
      ).rejects.toThrow(/ambiguous/);
    } finally {
      await alice.close();
    }
  });

  it('answers interceptors/list and interceptor/invoke itself and advertises the extension', async () => {
    const caps = bob.getServerCapabilities() as { extensions?: Record<string, { supportedEvents: string[] }> };
    expect(caps.extensions?.['io.modelcontextprotocol/interceptors']?.supportedEvents).toContain('tools/call');
    const result = await bob.request(
      {
        method: 'interceptor/invoke',
        params: { name: 'pii-validator', event: 'tools/call', phase: 'request', payload: { name: 'x', arguments: { q: 'social security' } } },
      },
      z.looseObject({ valid: z.boolean(), interceptor: z.string() }),
    );
    expect(result).toMatchObject({ interceptor: 'pii-validator', valid: false });
  });

  it('switches a blocked tools/call to a JSON-RPC error with blockedToolCall:"error" (hot-swapped config)', async () => {
    const { restarted } = await gateway.reload(configFor({ blockedToolCall: 'error' }));
    expect(restarted).toBe(false);
    const err = await bob.callTool({ name: 'echo', arguments: { message: 'ssn 123-45-6789' } }).then(
      () => undefined,
      (e: unknown) => e as { code: number; message: string; data: Record<string, unknown> },
    );
    expect(err?.code).toBe(-32602);
    expect(err?.message).toContain('Blocked by samples/pii-validator (request)');
    expect(err?.data).toMatchObject({ interceptor: 'pii-validator', server: 'samples', event: 'tools/call', phase: 'request' });
  });

  it('counts calls, blocks and mutations', async () => {
    await gateway.recordsSettled();
    const c = gateway.counters();
    expect(c.blocked).toBeGreaterThanOrEqual(2);
    expect(c.mutated).toBeGreaterThanOrEqual(1);
    expect(c.calls).toBe(recorder.executions.length);
    expect(c.p50Ms).toBeGreaterThan(0);
  });
});

describe('a crashed interceptor server (A8)', { timeout: 90_000 }, () => {
  /** `serve-samples --http <port>` as a child we can kill and bring back on the same port. */
  async function serveSamplesHttp(port: number): Promise<{ child: ChildProcess; url: string }> {
    const child = spawn(process.execPath, [cliPath, 'serve-samples', '--http', String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (t: string) => (stderr += t));
    await waitFor(() => /http:\/\/127\.0\.0\.1:\d+\/mcp/.test(stderr), 10_000, `serve-samples URL; stderr: ${stderr}`);
    return { child, url: /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(stderr)![0] };
  }

  for (const failOpen of [false, true]) {
    it(`${failOpen ? 'fails open' : 'blocks with a clear error naming the server'} while it is down, and is reconnected`, async () => {
      let server = await serveSamplesHttp(0);
      const port = Number(new URL(server.url).port);
      const gateway = new Gateway(
        configFor({ staticInterceptors: [{ transport: 'http', name: 'guard', endpoint: server.url, failOpen }], dynamicInterceptors: {} }),
      );
      await gateway.start();
      const client = await connect(gateway, 'token-bob');
      try {
        expect(text(await client.callTool({ name: 'echo', arguments: { message: 'a@b.io' } }))).toBe('Echo: [EMAIL_REDACTED]');
        server.child.kill('SIGKILL');
        await waitFor(() => server.child.exitCode !== null || server.child.signalCode !== null, 5000, 'interceptor server gone');
        // The first call after the crash meets the dead connection (an invocation failure, routed by each
        // interceptor's own failOpen) and retires it; from then on discovery fails and A8 decides.
        await client.callTool({ name: 'echo', arguments: { message: 'first after crash' } });
        const during = await client.callTool({ name: 'echo', arguments: { message: 'x@y.io during' } });
        if (failOpen) {
          expect(text(during)).toBe('Echo: x@y.io during');
        } else {
          expect(during.isError).toBe(true);
          expect(text(during)).toMatch(/^Blocked by guard \(request\): interceptor server 'guard' failed discovery and is fail-closed: /);
        }
        server = await serveSamplesHttp(port);
        // The invoker reconnects (with backoff); interception resumes.
        await waitFor(
          async () => text(await client.callTool({ name: 'echo', arguments: { message: 'c@d.io' } })) === 'Echo: [EMAIL_REDACTED]',
          20_000,
          'interception to resume (a redacted echo)',
          250,
        );
      } finally {
        await client.close();
        await gateway.stop();
        server.child.kill('SIGKILL');
      }
    });
  }
});

describe('server→client requests are intercepted as their own events', { timeout: 90_000 }, () => {
  it("redacts a secret in the backend's sampling/createMessage before the client sees it", async () => {
    const recorder = new MemoryRecorder();
    const base = configFor({ staticInterceptors: [samples('samples')], dynamicInterceptors: {} });
    // Narrow the redactor to sampling only (A11 hooks may narrow), so the tool call carries the secret to the backend.
    const config = {
      ...base,
      overrides: { ...base.overrides, 'samples/secretless-redactor': { hooks: [{ events: ['sampling/createMessage'], phase: 'request' as const }] } },
    };
    const gateway = new Gateway(config, { recorder });
    await gateway.start();
    const client = new Client({ name: 'sampling-client', version: '1' }, { capabilities: { sampling: {} } });
    const seen: string[] = [];
    client.setRequestHandler('sampling/createMessage', async (req) => {
      seen.push(JSON.stringify(req.params));
      return { model: 'm', role: 'assistant', content: { type: 'text', text: 'ok' } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url!), { requestInit: { headers: { Authorization: 'Bearer token-bob' } } }));
    try {
      await client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'use key AKIAABCDEFGHIJKLMNOP', maxTokens: 5 } });
      expect(seen).toHaveLength(1);
      expect(seen[0]).not.toContain('AKIAABCDEFGHIJKLMNOP');
      expect(seen[0]).toContain('<mcp:secret-ref:aws_access_key:');
      await gateway.recordsSettled();
      const sampling = recorder.executions.find((e) => e.event === 'sampling/createMessage')!;
      expect(sampling.outcome).toBe('mutated');
      expect(sampling.requestTrace?.steps.find((s) => s.id === 'samples/secretless-redactor')?.outcome).toBe('mutated');
      expect(sampling.responseTrace?.steps.find((s) => s.id === 'samples/request-logger')?.outcome).toBe('recorded');
    } finally {
      await client.close();
      await gateway.stop();
    }
  });
});
