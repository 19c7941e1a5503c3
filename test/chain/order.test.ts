import { describe, expect, it } from 'vitest';
import { compareOrdinal, configErrors, effectivePriority, orderChain, validateOverrides } from '../../src/main/interceptors/chain/index';
import { desc, discovered } from './helpers';

const ids = (entries: { id: string }[]) => entries.map((e) => e.id);

describe('effective priority', () => {
  it('uses override ?? descriptor ?? 0, a scalar for both phases and [phase] ?? 0 for an object', () => {
    expect(effectivePriority('request')).toBe(0);
    expect(effectivePriority('response', 7)).toBe(7);
    expect(effectivePriority('request', { request: -5, response: 9 })).toBe(-5);
    expect(effectivePriority('response', { request: -5, response: 9 })).toBe(9);
    expect(effectivePriority('response', { request: -5 })).toBe(0);
    expect(effectivePriority('request', 100, { response: 3 })).toBe(0);
    expect(effectivePriority('request', 100, -1)).toBe(-1);
  });
});

describe('orderChain', () => {
  it('orders mutations per phase with an object priority hint', () => {
    const items = discovered('s', 0, [
      desc('pii-redactor', 'mutation', { priorityHint: { request: -1000, response: 1000 } }),
      desc('normalizer', 'mutation', { priorityHint: 0 }),
      desc('compressor', 'mutation', { priorityHint: { request: 5000, response: -5000 } }),
    ]);
    expect(ids(orderChain({ event: 'tools/call', phase: 'request', interceptors: items }).mutations)).toEqual([
      's/pii-redactor',
      's/normalizer',
      's/compressor',
    ]);
    expect(ids(orderChain({ event: 'tools/call', phase: 'response', interceptors: items }).mutations)).toEqual([
      's/compressor',
      's/normalizer',
      's/pii-redactor',
    ]);
  });

  it('breaks priority ties by ordinal UTF-16 comparison, never localeCompare', () => {
    const names = ['a', 'é', 'B', 'f', 'Z'];
    // The locale-aware order differs (a, B, é, f, Z); the ordinal one puts upper case first and é last.
    expect([...names].sort((x, y) => x.localeCompare(y))).not.toEqual(['B', 'Z', 'a', 'f', 'é']);
    const plan = orderChain({
      event: 'tools/call',
      phase: 'request',
      interceptors: discovered(
        's',
        0,
        names.map((n) => desc(n, 'mutation')),
      ),
    });
    expect(plan.mutations.map((m) => m.name)).toEqual(['B', 'Z', 'a', 'f', 'é']);
    expect(compareOrdinal('B', 'a')).toBeLessThan(0);
    expect(compareOrdinal('é', 'f')).toBeGreaterThan(0);
  });

  it('breaks equal names by configured server order, then host list order', () => {
    const items = [...discovered('second', 1, [desc('tag', 'mutation')]), ...discovered('first', 0, [desc('tag', 'mutation')])];
    expect(ids(orderChain({ event: 'tools/call', phase: 'request', interceptors: items }).mutations)).toEqual(['first/tag', 'second/tag']);
    // Same server twice cannot list a name twice, but list order still decides among equal keys.
    const sameKey = [
      { server: 's', serverIndex: 0, listIndex: 1, descriptor: desc('x', 'mutation') },
      { server: 's', serverIndex: 0, listIndex: 0, descriptor: desc('x', 'mutation') },
    ];
    expect(orderChain({ event: 'tools/call', phase: 'request', interceptors: sameKey }).mutations.map((m) => m.listIndex)).toEqual([0, 1]);
  });

  it('lets an override priority move a mutation and groups validations and sinks apart', () => {
    const items = discovered('s', 0, [desc('m1', 'mutation'), desc('m2', 'mutation'), desc('v', 'validation'), desc('k', 'sink')]);
    const plan = orderChain({ event: 'tools/call', phase: 'request', interceptors: items, overrides: { 's/m2': { priorityHint: -1 } } });
    expect(ids(plan.mutations)).toEqual(['s/m2', 's/m1']);
    expect(ids(plan.validations)).toEqual(['s/v']);
    expect(ids(plan.sinks)).toEqual(['s/k']);
    expect(plan.mutations[0]?.priority).toBe(-1);
  });

  it('records why every other interceptor does not apply', () => {
    const items = [
      ...discovered('s', 0, [
        desc('other-event', 'validation', { events: ['resources/read'] }),
        desc('response-only', 'validation', { phases: ['response'] }),
        desc('off', 'validation'),
        desc('too-new', 'validation', { compat: { minProtocol: '2026-01-01' } }),
        desc('too-old', 'validation', { compat: { minProtocol: '2024-01-01', maxProtocol: '2024-12-31' } }),
        desc('fits', 'validation', { compat: { minProtocol: '2025-01-01', maxProtocol: '2025-12-31' } }),
        desc('glob', 'validation', { events: ['tools/*'] }),
      ]),
      ...discovered('down', 1, [desc('lost', 'validation')]),
    ];
    const plan = orderChain({
      event: 'tools/call',
      phase: 'request',
      interceptors: items,
      overrides: { 's/off': { enabled: false } },
      protocolVersion: '2025-06-18',
      failedServers: new Map([['down', 'connection refused']]),
    });
    expect(ids(plan.validations)).toEqual(['s/fits', 's/glob']);
    const reasons = Object.fromEntries(plan.skipped.map((s) => [s.id, s.reason]));
    expect(reasons).toEqual({
      's/other-event': 'event-not-hooked',
      's/response-only': 'other-phase',
      's/off': 'disabled',
      's/too-new': 'compat',
      's/too-old': 'compat',
      'down/lost': 'discovery-failed',
    });
    expect(plan.skipped.find((s) => s.id === 's/too-new')?.detail).toContain('2026-01-01');
    expect(plan.skipped.find((s) => s.id === 'down/lost')?.detail).toBe('connection refused');
    // Plain data: the UI receives it through the API.
    expect(JSON.parse(JSON.stringify(plan))).toEqual(plan);
  });

  it('does not apply compat without a negotiated version', () => {
    const plan = orderChain({
      event: 'tools/call',
      phase: 'request',
      interceptors: discovered('s', 0, [desc('v', 'validation', { compat: { minProtocol: '2099-01-01' } })]),
    });
    expect(plan.validations).toHaveLength(1);
  });

  it('applies effective (narrowed) hooks and effective mode/failOpen/timeout/config', () => {
    const items = discovered('s', 0, [desc('v', 'validation', { events: ['tools/call', 'resources/read'] })]);
    const overrides = {
      's/v': { hooks: [{ events: ['resources/read'], phase: 'request' as const }], mode: 'audit' as const, failOpen: true, timeoutMs: 50, config: { a: 1 } },
    };
    const onCall = orderChain({ event: 'tools/call', phase: 'request', interceptors: items, overrides });
    expect(onCall.skipped[0]?.reason).toBe('event-not-hooked');
    const onRead = orderChain({ event: 'resources/read', phase: 'request', interceptors: items, overrides });
    expect(onRead.validations[0]).toMatchObject({ mode: 'audit', failOpen: true, timeoutMs: 50, config: { a: 1 } });
  });
});

describe('part A details in the ordering function', () => {
  it('A14: legacy */request matches only its phase; "*" never matches initialize, ping or notifications', () => {
    const items = discovered('s', 0, [
      desc('legacy', 'validation', { events: ['*/request'], phases: ['request', 'response'] }),
      desc('star', 'validation', { events: ['*'] }),
    ]);
    expect(orderChain({ event: 'resources/read', phase: 'request', interceptors: items }).validations.map((v) => v.name)).toEqual(['legacy', 'star']);
    expect(orderChain({ event: 'resources/read', phase: 'response', interceptors: items }).validations.map((v) => v.name)).toEqual(['star']);
    for (const event of ['initialize', 'ping', 'notifications/progress']) {
      const plan = orderChain({ event, phase: 'request', interceptors: items });
      expect(plan.validations).toEqual([]);
      expect(plan.skipped.map((s) => s.reason)).toEqual(['event-not-hooked', 'event-not-hooked']);
    }
  });

  it('A5: an override mode "enforce" is read as active', () => {
    const issues = validateOverrides({ 's/v': { mode: 'enforce' } }, discovered('s', 0, [desc('v', 'validation')]));
    expect(issues).toEqual([]);
    const plan = orderChain({
      event: 'tools/call',
      phase: 'request',
      interceptors: discovered('s', 0, [desc('v', 'validation', { mode: 'audit' })]),
      overrides: { 's/v': { mode: 'active' } },
    });
    expect(plan.validations[0]?.mode).toBe('active');
    const raw = { 's/v': { mode: 'enforce' } } as unknown as Parameters<typeof orderChain>[0]['overrides'];
    const legacy = orderChain({
      event: 'tools/call',
      phase: 'request',
      interceptors: discovered('s', 0, [desc('v', 'validation', { mode: 'audit' })]),
      overrides: raw,
    });
    expect(legacy.validations[0]?.mode).toBe('active');
  });

  it('accepts failed servers as a plain record (JSON through the app API)', () => {
    const plan = orderChain({
      event: 'tools/call',
      phase: 'request',
      interceptors: discovered('down', 0, [desc('v', 'validation')]),
      failedServers: { down: 'refused' },
    });
    expect(plan.skipped[0]).toMatchObject({ reason: 'discovery-failed', detail: 'refused' });
  });

  it('orders fractional priority hints by the number (the TS reference emits them)', () => {
    const items = discovered('s', 0, [desc('c', 'mutation', { priorityHint: 0.5 }), desc('b', 'mutation', { priorityHint: -0.5 }), desc('a', 'mutation')]);
    expect(ids(orderChain({ event: 'tools/call', phase: 'request', interceptors: items }).mutations)).toEqual(['s/b', 's/a', 's/c']);
  });
});

describe('config required by configSchema (A12)', () => {
  const allowlist = { ...desc('allowlist', 'validation'), configSchema: { type: 'object', properties: { allow: { type: 'array' } }, required: ['allow'] } };
  const withDefault = {
    ...desc('defaulted', 'validation'),
    configSchema: { type: 'object', properties: { level: { type: 'number', default: 1 } }, required: ['level'] },
  };
  const foreign = { ...desc('foreign', 'validation'), configSchema: { type: 'string' } };
  const broken = { ...desc('broken', 'validation'), configSchema: { type: 'object', properties: { a: { type: 'nope' } }, required: ['a'] } };
  const items = discovered('s', 0, [allowlist, withDefault, foreign, broken]);
  const plan = (overrides = {}) => orderChain({ event: 'tools/call', phase: 'request', interceptors: items, overrides });

  it('skips an interceptor whose schema requires a config none is set for, with a sentence that says how to fix it', () => {
    const p = plan();
    expect(ids(p.validations)).toEqual(['s/broken', 's/defaulted', 's/foreign']);
    expect(p.skipped.find((e) => e.id === 's/allowlist')).toMatchObject({
      reason: 'config-invalid',
      detail: expect.stringMatching(/\(config\.allow is required\); it is skipped \(not invoked\) until overrides\["s\/allowlist"\]\.config is set/),
    });
  });

  it('runs it once a config is set, even a wrong one (the host refuses it: fail-closed), which is still reported', () => {
    expect(ids(plan({ 's/allowlist': { config: { allow: ['*'] } } }).validations)).toContain('s/allowlist');
    expect(ids(plan({ 's/allowlist': { config: { allow: 'x' } } }).validations)).toContain('s/allowlist');
    expect(configErrors(items, { 's/allowlist': { config: { allow: 'x' } } })).toEqual([
      expect.objectContaining({ id: 's/allowlist', message: expect.stringMatching(/\(config\.allow must be array\); the host refuses every invoke/) }),
    ]);
    expect(configErrors(items, { 's/allowlist': { config: { allow: [] } } })).toEqual([]);
    expect(configErrors(items, { 's/allowlist': { enabled: false } })).toEqual([]);
  });
});
