// The gateway config: the reference format parses unchanged, errors name the path and what was expected,
// the committed JSON Schema is what the zod schema generates, and every shipped example parses.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dynamicServersFor, formatConfigErrors, parseGatewayConfig, parseGatewayConfigText, recordingEnabled } from '../../src/shared/config';
import { gatewayConfigJsonSchema } from '../../src/shared/config/json-schema';

const root = new URL('../../', import.meta.url);

describe('gateway config', () => {
  it('reads the reference mcp-interceptors.json format unchanged', () => {
    const reference = {
      serverInfo: { name: 'ConfigDrivenGateway', version: '1.0.0' },
      backend: { transport: 'http', name: 'EverythingServer', endpoint: 'http://localhost:3001/mcp' },
      staticInterceptors: [{ transport: 'http', name: 'SecurityInterceptorServer', endpoint: 'http://localhost:3002/mcp' }],
      dynamicInterceptors: {
        alice: [{ transport: 'http', connectionId: 'alice-sink', name: 'AliceInterceptorServer', endpoint: 'http://localhost:3003/mcp' }],
      },
      interceptedEvents: ['tools/call'],
    };
    const r = parseGatewayConfig(reference);
    if (!r.ok) throw new Error(formatConfigErrors(r.errors));
    expect(r.config.listen).toEqual({ transport: 'stdio' });
    expect(r.config.blockedToolCall).toBe('result');
    expect(r.config.exposeInterceptorProtocol).toBe(false);
    expect(recordingEnabled(r.config)).toBe(true);
    // Principal keys are case-insensitive.
    expect(dynamicServersFor(r.config, 'ALICE').map((e) => e.name)).toEqual(['AliceInterceptorServer']);
    expect(dynamicServersFor(r.config, 'bob')).toEqual([]);
    expect(dynamicServersFor(r.config, undefined)).toEqual([]);
  });

  it('names the JSON path and what was expected', () => {
    const r = parseGatewayConfig({
      backend: { transport: 'stdio', name: 'b', command: 42 },
      staticInterceptors: [{ transport: 'http', name: 's', endpoint: 'not a url' }],
      listen: { transport: 'http', port: 'eighty' },
      overrides: { 'no-slash': {} },
      interceptdEvents: [],
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const text = formatConfigErrors(r.errors);
    expect(text).toContain('backend.command: expected a string (the command that starts the backend)');
    expect(text).toContain('staticInterceptors[0].endpoint: expected a URL');
    expect(text).toContain('listen.port: expected a port number');
    expect(text).toContain('overrides["no-slash"]: expected a key of the form "<server>/<interceptor>"');
    expect(text).toContain('(root): unknown key "interceptdEvents"');
  });

  it('rejects an unknown transport, bad JSON, duplicate server names and case-clashing principals', () => {
    const bad = parseGatewayConfig({ backend: { transport: 'websocket', name: 'b' } });
    expect(!bad.ok && formatConfigErrors(bad.errors)).toContain('backend.transport: expected "transport" to be "stdio", "http" or "sse"');
    const json = parseGatewayConfigText('{ "backend": ');
    expect(!json.ok && json.errors[0]?.message).toMatch(/^not valid JSON/);
    const dup = parseGatewayConfig({
      backend: { transport: 'stdio', name: 'b', command: 'x' },
      staticInterceptors: [
        { transport: 'stdio', name: 'same', command: 'x' },
        { transport: 'stdio', name: 'same', command: 'y' },
      ],
      dynamicInterceptors: { Alice: [], alice: [] },
    });
    const dupText = !dup.ok ? formatConfigErrors(dup.errors) : '';
    expect(dupText).toContain('staticInterceptors[1].name: duplicate interceptor server name "same"');
    expect(dupText).toContain('principal keys are case-insensitive');
  });

  it('reads the extensions: listen, overrides, sse backend, failOpen, recording off', () => {
    const r = parseGatewayConfig({
      backend: { transport: 'sse', name: 'b', endpoint: 'http://127.0.0.1:9/sse', headers: { 'x-a': '1' } },
      staticInterceptors: [{ transport: 'stdio', name: 's', command: 'node', env: { A: '1' }, cwd: '/tmp', failOpen: true }],
      listen: { transport: 'http', port: 0, tokens: { t1: 'alice' } },
      overrides: { 's/x': { enabled: false, mode: 'enforce', priorityHint: { request: -5 }, hooks: [{ events: ['tools/call'], phase: 'request' }] } },
      recording: false,
      blockedToolCall: 'error',
      timeoutMs: 1000,
    });
    if (!r.ok) throw new Error(formatConfigErrors(r.errors));
    expect(r.config.listen).toEqual({
      transport: 'http',
      host: '127.0.0.1',
      port: 0,
      path: '/mcp',
      tokens: { t1: 'alice' },
      sessionIdleTimeoutMs: 600_000,
      maxSessions: 64,
    });
    expect([r.config.backendTimeoutMs, r.config.drainTimeoutMs, r.config.backendMethodTimeoutsMs]).toEqual([120_000, 10_000, {}]);
    expect(r.config.overrides['s/x']?.mode).toBe('active');
    expect(recordingEnabled(r.config)).toBe(false);
  });

  it('has an up-to-date generated JSON Schema (run scripts/generate-config-schema.ts)', () => {
    const committed = readFileSync(new URL('resources/gateway-config.schema.json', root), 'utf8');
    expect(committed).toBe(gatewayConfigJsonSchema());
  });

  it('parses every shipped example', () => {
    const dir = new URL('resources/examples/', root);
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const file of files) {
      const r = parseGatewayConfigText(readFileSync(new URL(file, dir), 'utf8'));
      if (!r.ok) throw new Error(`${file}:\n${formatConfigErrors(r.errors)}`);
    }
  });
});
