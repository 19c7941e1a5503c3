// Every bundled sample on a payload with null values and an own `__proto__` key (legal JSON; JSON.parse makes
// it an own key): nothing blocks, an unchanged mutator gives the payload back equal to its input, and a
// redacting one keeps the null values and the `__proto__` key (issue #14 item 5).
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/shared/protocol/canonical';
import { createSampleHost, secretRef } from '../../src/main/interceptors/samples';

const host = createSampleHost({ log: () => undefined });
const invoke = (name: string, event: string, phase: 'request' | 'response', payload: unknown, config?: Record<string, unknown>) =>
  host.invoke({ name, event, phase, payload, ...(config ? { config } : {}), context: { sessionId: 'exact' } }) as Promise<Record<string, unknown>>;

const plainText = '{"name":"echo","arguments":{"__proto__":{"inner":null},"note":null,"list":[null,{"__proto__":1}]}}';

describe('bundled samples on null values and an own __proto__ key', () => {
  it('JSON.parse makes __proto__ an own key (the premise)', () => {
    const parsed = JSON.parse(plainText) as { arguments: object };
    expect(Object.prototype.hasOwnProperty.call(parsed.arguments, '__proto__')).toBe(true);
    expect(JSON.stringify(parsed)).toBe(plainText);
  });

  it('no sample blocks or changes such a request or response', async () => {
    for (const d of host.descriptors()) {
      for (const hook of d.hooks) {
        const event = hook.events.includes('tools/call') || hook.events.includes('*') ? 'tools/call' : hook.events[0]!;
        const payload = JSON.parse(
          hook.phase === 'request' ? plainText : '{"content":[{"type":"text","text":"ok"}],"structuredContent":{"__proto__":{"x":null},"y":null}}',
        );
        const before = JSON.stringify(payload);
        const config = d.name === 'tool-allowlist' ? { allow: ['*'] } : undefined;
        const r = await invoke(d.name, event, hook.phase, payload, config);
        const where = `${d.name} ${event} ${hook.phase}`;
        if (r.type === 'validation') expect(r.valid, where).toBe(true);
        if (r.type === 'sink') expect(r.recorded, where).toBe(true);
        if (r.type === 'mutation') {
          expect(r.modified, where).toBe(false);
          if (r.payload !== undefined) expect(JSON.stringify(r.payload), where).toBe(before);
        }
        expect(JSON.stringify(payload), `${where} must not touch its input`).toBe(before);
      }
    }
  });

  it('secretless-redactor keeps null values and __proto__ keys while replacing a secret inside them', async () => {
    const secret = 'AKIAIOSFODNN7EXAMPLE';
    const text = `{"name":"echo","arguments":{"__proto__":{"key":"${secret}","gone":null},"note":null}}`;
    const r = await invoke('secretless-redactor', 'tools/call', 'request', JSON.parse(text));
    expect(r.modified).toBe(true);
    expect(JSON.stringify(r.payload)).toBe(text.replace(secret, secretRef('aws_access_key', secret)));
  });

  it('canonical JSON (the modified:false comparison) sees an own __proto__ key', () => {
    expect(canonicalJson(JSON.parse('{"b":1,"__proto__":{"x":null}}'))).toBe('{"__proto__":{"x":null},"b":1}');
    expect(canonicalJson(JSON.parse('{"__proto__":1}'))).not.toBe(canonicalJson({}));
  });
});
