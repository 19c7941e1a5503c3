// The config snapshot a gateway records keeps the shape of its config and drops its secrets.
import { describe, expect, it } from 'vitest';
import { parseGatewayConfig } from '../../src/shared/config/parse';
import { configSnapshot, REDACTED } from '../../src/main/gateway/record/config-snapshot';

describe('configSnapshot', () => {
  it('replaces bearer tokens, backend env values and header values, and keeps everything else', () => {
    const parsed = parseGatewayConfig({
      backend: { transport: 'http', name: 'remote', endpoint: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer backend-secret' } },
      listen: { transport: 'http', port: 0, tokens: { 'token-a': 'alice', 'token-b': 'bob' } },
      staticInterceptors: [{ transport: 'stdio', name: 'samples', command: 'node', arguments: ['x.js'], env: { KEY: 'interceptor-secret' } }],
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const snapshot = configSnapshot(parsed.config) as {
      backend: { headers: unknown; endpoint: string };
      listen: { tokens: Record<string, string> };
      staticInterceptors: { env: unknown; arguments: string[] }[];
    };
    const text = JSON.stringify(snapshot);
    for (const secret of ['backend-secret', 'token-a', 'token-b', 'interceptor-secret']) expect(text).not.toContain(secret);
    expect(snapshot.backend.headers).toEqual({ Authorization: REDACTED });
    expect(Object.values(snapshot.listen.tokens)).toEqual(['alice', 'bob']);
    expect(snapshot.staticInterceptors[0]!.env).toEqual({ KEY: REDACTED });
    expect(snapshot.staticInterceptors[0]!.arguments).toEqual(['x.js']);
    expect(snapshot.backend.endpoint).toBe('http://127.0.0.1:9/mcp');
  });
});
