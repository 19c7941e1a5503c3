// OpenTelemetry export end to end: the built CLI's headless gateway (`gateway --otlp-endpoint`) in front of a
// real backend and the bundled sample interceptors, exporting to a real OTLP/HTTP receiver. Checks the trace
// structure (exchange → interceptor steps and backend call), the attributes, that a client's `_meta.traceparent`
// becomes the exchange span's parent, that the backend gets the gateway's traceparent, and that metrics arrive.
// A gateway whose collector is down keeps serving and recording.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { countExecutions, openStore } from '../../src/main/history/sqlite';
import { LineClient, cliPath, everythingBackend, freePort, rawBackend, waitFor, writeConfig } from '../gateway/helpers';
import { OtlpReceiver, type ReceivedSpan } from './otlp-receiver';

const samples = { transport: 'stdio', name: 'samples', command: process.execPath, arguments: [cliPath, 'serve-samples'] };
const overrides = { 'samples/tool-allowlist': { config: { allow: ['*'] } } };
// Short export delays so the test waits on arrivals, not on the SDK's production intervals.
const otelEnv = { ...process.env, OTEL_BSP_SCHEDULE_DELAY: '100', OTEL_METRIC_EXPORT_INTERVAL: '300', OTEL_EXPORTER_OTLP_ENDPOINT: '' };
const CLIENT_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function receiver(): Promise<{ rx: OtlpReceiver; url: string }> {
  const rx = new OtlpReceiver();
  const url = await rx.start();
  cleanups.push(() => rx.close());
  return { rx, url };
}

function gateway(args: string[], env: NodeJS.ProcessEnv = otelEnv): LineClient {
  const gw = new LineClient([cliPath, 'gateway', ...args], env);
  cleanups.push(() => gw.stop());
  return gw;
}

const exchangeOf = (spans: ReceivedSpan[], executionOf: (s: ReceivedSpan) => boolean) => spans.find((s) => s.kind === 2 && executionOf(s));
const childrenOf = (spans: ReceivedSpan[], parent: ReceivedSpan) => spans.filter((s) => s.parentSpanId === parent.spanId && s.traceId === parent.traceId);

describe('OpenTelemetry export from a headless gateway', { timeout: 90_000 }, () => {
  it('exports each execution as a trace: exchange span, interceptor step spans, backend span, and metrics', async () => {
    const { rx, url } = await receiver();
    const config = writeConfig({
      serverInfo: { name: 'otel-gateway', version: '1' },
      backend: everythingBackend,
      listen: { transport: 'stdio', principal: 'alice' },
      staticInterceptors: [samples],
      overrides,
    });
    const gw = gateway(['--config', config, '--no-record', '--otlp-endpoint', url]);
    await gw.initialize();
    const ok = (await gw.request(1, 'tools/call', {
      name: 'echo',
      arguments: { message: 'mail me@example.org' },
      _meta: { traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01` },
    })) as { result: { content: { text: string }[] } };
    expect(ok.result.content[0]!.text).toBe('Echo: mail [EMAIL_REDACTED]');
    const blocked = (await gw.request(2, 'tools/call', { name: 'echo', arguments: { message: 'ssn 078-05-1120' } })) as { result: { isError: boolean } };
    expect(blocked.result.isError).toBe(true);

    const isCall = (id: string) => (s: ReceivedSpan) => s.attributes['jsonrpc.request.id'] === id && s.attributes['mcp.method.name'] === 'tools/call';
    await waitFor(() => exchangeOf(rx.spans(), isCall('1')) !== undefined && exchangeOf(rx.spans(), isCall('2')) !== undefined, 30_000, 'exchange spans');
    expect([...rx.contentTypes]).toContain('application/json');
    // Spans are built and sent on the export thread, not the gateway's (the fallback says so in the log).
    expect(gw.stderr).toContain('OpenTelemetry: exporting traces and metrics to');
    expect(gw.stderr).not.toContain("exporting on the gateway's thread");

    // 1: continues the client's trace; its steps and the backend call are its children.
    let spans = rx.spans();
    const traced = exchangeOf(spans, isCall('1'))!;
    expect(traced).toMatchObject({ name: 'tools/call echo', traceId: CLIENT_TRACE, parentSpanId: CLIENT_SPAN, statusCode: 0 });
    expect(traced.attributes).toMatchObject({
      'mcp.gateway.name': 'otel-gateway',
      'mcp.target': 'echo',
      'mcp.gateway.outcome': 'mutated',
      'enduser.id': 'alice',
      'mcp.principal.type': 'user',
    });
    expect(traced.resource).toMatchObject({ 'service.name': 'interceptor-console-gateway' });
    // Steps arrive with their exchange (one batch per execution), so waiting for the exchange was enough.
    const children = childrenOf(spans, traced);
    const backend = children.filter((s) => s.kind === 3);
    expect(backend).toHaveLength(1);
    expect(backend[0]!.name).toBe('backend tools/call');
    const steps = children.filter((s) => s.kind === 1);
    const stepIds = steps.map((s) => `${s.attributes['mcp.interceptor.phase']} ${s.attributes['mcp.interceptor.id']}`);
    expect(stepIds).toEqual(
      expect.arrayContaining([
        'request samples/pii-validator',
        'request samples/tool-allowlist',
        'request samples/email-redactor',
        'response samples/request-logger',
      ]),
    );
    expect(steps.find((s) => s.attributes['mcp.interceptor.id'] === 'samples/email-redactor')!.attributes).toMatchObject({
      'mcp.interceptor.type': 'mutation',
      'mcp.interceptor.outcome': 'mutated',
      'mcp.gateway.name': 'otel-gateway',
    });

    // 2: no client trace: a new root whose trace id is the execution id; blocked in the request phase, so no backend span.
    const root = exchangeOf(spans, isCall('2'))!;
    expect(root.parentSpanId).toBeUndefined();
    expect(root.traceId).toBe(String(root.attributes['mcp.gateway.execution_id']).replace(/-/g, ''));
    expect(root.attributes).toMatchObject({ 'mcp.gateway.outcome': 'blocked', 'mcp.gateway.blocked_by': 'samples/pii-validator' });
    const rootChildren = childrenOf(spans, root);
    expect(rootChildren.filter((s) => s.kind === 3)).toHaveLength(0);
    expect(rootChildren.find((s) => s.attributes['mcp.interceptor.id'] === 'samples/pii-validator')!.attributes['mcp.interceptor.outcome']).toBe('blocked');

    // Metrics: calls by outcome, blocked by interceptor, latency histograms per gateway and interceptor.
    const sumOf = (name: string, match: Record<string, unknown>) =>
      rx
        .metricNamed(name)
        .flatMap((m) => m.sum?.dataPoints ?? [])
        .filter((p) => Object.entries(match).every(([k, v]) => p.attributes.some((a) => a.key === k && a.value.stringValue === v)))
        .reduce((max, p) => Math.max(max, Number(p.asInt ?? p.asDouble ?? 0)), 0);
    await waitFor(() => sumOf('mcp.gateway.calls', { 'mcp.method.name': 'tools/call' }) >= 1 && sumOf('mcp.gateway.blocked', {}) >= 1, 30_000, 'metrics');
    expect(sumOf('mcp.gateway.calls', { 'mcp.gateway.name': 'otel-gateway', 'mcp.gateway.outcome': 'mutated' })).toBe(1);
    expect(sumOf('mcp.gateway.blocked', { 'mcp.interceptor.id': 'samples/pii-validator' })).toBe(1);
    expect(sumOf('mcp.interceptor.invocations', { 'mcp.interceptor.id': 'samples/email-redactor', 'mcp.interceptor.outcome': 'mutated' })).toBe(1);
    await waitFor(() => rx.metricNamed('mcp.interceptor.duration').length > 0 && rx.metricNamed('mcp.gateway.duration').length > 0, 30_000, 'histograms');
    const histogram = rx.metricNamed('mcp.gateway.duration')[0]!;
    expect(histogram.unit).toBe('ms');
    expect(histogram.histogram!.dataPoints.some((p) => Number(p.count) >= 1)).toBe(true);

    spans = rx.spans();
    // Every span of the process belongs to an exchange trace (no strays without a parent in the gateway).
    for (const s of spans.filter((x) => x.kind !== 2)) expect(spans.some((p) => p.spanId === s.parentSpanId)).toBe(true);
  });

  it('passes its backend-call span to the backend in _meta.traceparent, and changes no bytes when export is off', async () => {
    const { rx, url } = await receiver();
    const config = writeConfig({ serverInfo: { name: 'otel-raw', version: '1' }, backend: rawBackend(), staticInterceptors: [samples], overrides });
    const gw = gateway(['--config', config, '--no-record', '--otlp-endpoint', url]);
    await gw.initialize();
    const res = (await gw.request(7, 'tools/call', {
      name: 'echo',
      arguments: { text: 'hi' },
      _meta: { traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01` },
    })) as {
      result: { receivedTraceparent?: string };
    };
    const sent = res.result.receivedTraceparent;
    expect(sent).toMatch(new RegExp(`^00-${CLIENT_TRACE}-[0-9a-f]{16}-01$`));
    await waitFor(() => rx.spans().some((s) => s.kind === 3), 30_000, 'backend span');
    const backendSpan = rx.spans().find((s) => s.kind === 3)!;
    expect(sent).toBe(`00-${CLIENT_TRACE}-${backendSpan.spanId}-01`);
    const exchange = rx.spans().find((s) => s.spanId === backendSpan.parentSpanId)!;
    expect(exchange).toMatchObject({ kind: 2, parentSpanId: CLIENT_SPAN });

    // Export off: the client's own traceparent passes through untouched, and none is added where it had none.
    const plain = gateway(['--config', config, '--no-record'], { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: '' });
    await plain.initialize();
    const own = `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01`;
    const passed = (await plain.request(8, 'tools/call', { name: 'echo', arguments: {}, _meta: { traceparent: own } })) as {
      result: { receivedTraceparent?: string };
    };
    expect(passed.result.receivedTraceparent).toBe(own);
    const none = (await plain.request(9, 'tools/call', { name: 'echo', arguments: {} })) as { result: Record<string, unknown> };
    expect(none.result).not.toHaveProperty('receivedTraceparent');
    expect(plain.stderr).not.toContain('OpenTelemetry');
  });

  it('over HTTP (a v2 SDK client, token → principal), the exchange continues the client trace and names the principal', async () => {
    const { rx, url } = await receiver();
    const config = writeConfig({
      serverInfo: { name: 'otel-http', version: '1' },
      backend: everythingBackend,
      listen: { transport: 'http', port: 0, tokens: { 'tok-bob': 'bob' } },
      staticInterceptors: [samples],
      overrides,
    });
    const gw = gateway(['--config', config, '--no-record', '--otlp-endpoint', url]);
    await waitFor(() => /listening on (http:\S+)/.test(gw.stderr), 30_000, `listening; stderr:\n${gw.stderr}`);
    const endpoint = /listening on (http:\S+)/.exec(gw.stderr)![1]!;
    const client = new Client({ name: 'otel-http-test', version: '1' }, { capabilities: {} });
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint), { requestInit: { headers: { Authorization: 'Bearer tok-bob' } } }));
    cleanups.push(() => client.close());
    const result = await client.callTool({ name: 'echo', arguments: { message: 'over http' }, _meta: { traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01` } });
    expect(JSON.stringify(result.content)).toContain('over http');
    const isEcho = (s: ReceivedSpan) => s.kind === 2 && s.attributes['mcp.target'] === 'echo';
    await waitFor(() => rx.spans().some(isEcho), 30_000, 'the echo exchange span');
    const exchange = rx.spans().find(isEcho)!;
    expect(exchange).toMatchObject({ traceId: CLIENT_TRACE, parentSpanId: CLIENT_SPAN });
    expect(exchange.attributes).toMatchObject({ 'enduser.id': 'bob', 'mcp.gateway.name': 'otel-http', 'mcp.gateway.outcome': 'allow' });
    expect(childrenOf(rx.spans(), exchange).filter((s) => s.kind === 3)).toHaveLength(1);
  });

  it('keeps serving and recording when the OTLP endpoint is down; the export errors go to the log', async () => {
    const deadPort = await freePort();
    const db = join(mkdtempSync(join(tmpdir(), 'ic-otel-db-')), 'history.db');
    const config = writeConfig({ serverInfo: { name: 'otel-down', version: '1' }, backend: rawBackend(), staticInterceptors: [samples], overrides });
    // A short export timeout: the stop at the end waits for it (bounded) before giving up on the queue.
    const gw = gateway(['--config', config, '--db', db, '--otlp-endpoint', `http://127.0.0.1:${deadPort}`], { ...otelEnv, OTEL_EXPORTER_OTLP_TIMEOUT: '1000' });
    await gw.initialize();
    for (let i = 0; i < 20; i++) {
      const res = (await gw.request(i, 'tools/call', { name: 'echo', arguments: { i } })) as { result: { content: { text: string }[] } };
      expect(res.result.content[0]!.text).toBe(JSON.stringify({ i }));
    }
    await waitFor(() => gw.stderr.includes('OpenTelemetry export to'), 30_000, `export error in the log; stderr:\n${gw.stderr}`);
    expect(gw.stderr).toMatch(/traffic is unaffected/);
    await gw.stop();
    expect(gw.exit!.code).toBe(0);
    const store = openStore(db, { readonly: true, create: false });
    try {
      expect(countExecutions(store.db, { gateway: 'otel-down' })).toBe(20);
    } finally {
      store.close();
    }
  });
});
