import { describe, expect, it } from 'vitest';
import { ChainRuntime, MemoryServerHandle, discoverAll } from '../../src/main/interceptors/chain/index';
import { allow, appendNote, call, deny, desc, ic, memServer } from './helpers';

describe('merged discovery (A7)', () => {
  it('merges several servers; equal names are two interceptors, each invoked on its own server', async () => {
    const one = memServer('one', [ic(desc('tag', 'mutation'), appendNote('1')), ic(desc('v', 'validation'), allow)]);
    const two = memServer('two', [ic(desc('tag', 'mutation'), appendNote('2'))]);
    const three = memServer('three', [ic(desc('early', 'mutation', { priorityHint: -5 }), appendNote('E'))]);
    const rt = new ChainRuntime([two, one, three]);
    const plan = await rt.plan('tools/call', 'request');
    expect(plan.mutations.map((m) => m.id)).toEqual(['three/early', 'two/tag', 'one/tag']);
    const r = await rt.run('tools/call', 'request', call('x'));
    expect(r.finalPayload).toEqual(call('xE21'));
    expect(one.invocations.map((i) => i.name)).toEqual(['tag', 'v']);
    expect(two.invocations.map((i) => i.name)).toEqual(['tag']);
    expect(r.trace.discovery.map((d) => [d.server, d.ok, d.interceptorCount])).toEqual([
      ['two', true, 1],
      ['one', true, 2],
      ['three', true, 1],
    ]);
  });

  it('caches discovery: the hot path does not list again', async () => {
    const s = memServer('s', [ic(desc('v', 'validation'), allow)]);
    const rt = new ChainRuntime([s]);
    for (let i = 0; i < 5; i++) await rt.run('tools/call', 'request', call('x'));
    expect(s.listCalls).toBe(1);
    await rt.discover({ refresh: true });
    expect(s.listCalls).toBe(2);
  });

  it('skips malformed and duplicate descriptors with a recorded reason, never a crash', async () => {
    const s = new MemoryServerHandle('s', [ic(desc('v', 'validation'), allow)], {
      extraRawDescriptors: [{ name: 'bad-type', type: 'observer', hooks: [] }, { type: 'validation', hooks: [] }, desc('v', 'validation')],
    });
    const out = await discoverAll([s]);
    expect(out.interceptors.map((d) => d.descriptor.name)).toEqual(['v']);
    expect(out.records[0]?.skippedDescriptors).toEqual([
      expect.objectContaining({ name: 'bad-type', reason: expect.stringContaining('malformed') }),
      expect.objectContaining({ reason: expect.stringContaining('malformed') }),
      expect.objectContaining({ name: 'v', reason: expect.stringContaining('duplicate') }),
    ]);
  });

  it('rejects two servers with one name', () => {
    expect(() => new ChainRuntime([memServer('s', []), memServer('s', [])])).toThrow(/both named "s"/);
  });
});

describe('discovery failure (A8)', () => {
  it('fail-closed: blocks the request with an error naming the server, invoking nothing', async () => {
    const ok = memServer('ok', [ic(desc('v', 'validation'), allow)]);
    const down = new MemoryServerHandle('down', [], { discoveryError: 'spawn ENOENT' });
    const r = await new ChainRuntime([ok, down]).run('tools/call', 'request', call('x'));
    expect(r.decision).toBe('block');
    expect(r.trace.status).toBe('discovery_failed');
    expect(r.trace.blockedBy?.server).toBe('down');
    expect(r.trace.blockedBy?.reason).toContain("interceptor server 'down' failed discovery");
    expect(r.trace.blockedBy?.reason).toContain('spawn ENOENT');
    expect(r.trace.discovery.find((d) => d.server === 'down')).toMatchObject({ ok: false, failOpen: false, error: 'spawn ENOENT' });
    expect(r.trace.steps).toEqual([expect.objectContaining({ id: 'ok/v', skipped: 'after-block' })]);
    expect(ok.invocations).toHaveLength(0);
  });

  it('fail-open: the failing server is skipped and the rest of the chain runs', async () => {
    const ok = memServer('ok', [ic(desc('v', 'validation'), allow)]);
    const down = new MemoryServerHandle('down', [], { discoveryError: 'connection refused', failOpen: true });
    const r = await new ChainRuntime([ok, down]).run('tools/call', 'request', call('x'));
    expect(r.decision).toBe('allow');
    expect(r.trace.discovery.find((d) => d.server === 'down')).toMatchObject({ ok: false, failOpen: true });
  });

  it('fail-open: interceptors known from an earlier discovery are listed as skipped discovery-failed', async () => {
    let broken = false;
    const flaky = new MemoryServerHandle('flaky', [ic(desc('guard', 'validation'), deny)], { failOpen: true });
    const original = flaky.discover.bind(flaky);
    flaky.discover = async (o) => {
      if (broken) throw new Error('server crashed');
      return original(o);
    };
    const rt = new ChainRuntime([flaky]);
    expect((await rt.run('tools/call', 'request', call('x'))).decision).toBe('block');
    broken = true;
    const r = await rt.run('tools/call', 'request', call('x'));
    expect(r.decision).toBe('allow');
    expect(r.trace.steps).toEqual([expect.objectContaining({ id: 'flaky/guard', skipped: 'discovery-failed', skipDetail: 'server crashed' })]);
  });
});

describe('compat per run (A17)', () => {
  it('skips an interceptor whose compat range excludes the session protocol version, and records it', async () => {
    const s = memServer('s', [ic(desc('modern', 'validation', { compat: { minProtocol: '2025-06-18' } }), deny)]);
    const rt = new ChainRuntime([s], { protocolVersion: '2025-11-25' });
    expect((await rt.run('tools/call', 'request', call('x'))).decision).toBe('block');
    const old = await rt.run('tools/call', 'request', call('x'), { protocolVersion: '2024-11-05' });
    expect(old.decision).toBe('allow');
    expect(old.trace.steps[0]).toMatchObject({ skipped: 'compat', skipDetail: expect.stringContaining('2025-06-18') });
    expect(s.invocations).toHaveLength(1);
  });
});

describe('runtime overrides', () => {
  it('normalises legacy enforce, rejects bad shapes with the path, and applies new overrides at once', async () => {
    const s = memServer('s', [ic(desc('v', 'validation', { mode: 'audit' }), deny)]);
    const rt = new ChainRuntime([s], { overrides: { 's/v': { mode: 'enforce' } } as never });
    expect((await rt.run('tools/call', 'request', call('x'))).decision).toBe('block');
    rt.setOverrides({ 's/v': { enabled: false } });
    expect((await rt.run('tools/call', 'request', call('x'))).trace.steps[0]?.skipped).toBe('disabled');
    expect(() => rt.setOverrides({ 's/v': { timeoutMs: 'soon' } } as never)).toThrow(/s\/v\.timeoutMs/);
    rt.setOverrides({ 's/v': { hooks: [{ events: ['resources/read'], phase: 'request' }] } });
    expect(await rt.validateOverrides()).toEqual([expect.objectContaining({ kind: 'widening', path: 'hooks[0].events[0]' })]);
    await expect(rt.run('tools/call', 'request', call('x'))).rejects.toThrow(/widens its hooks/);
  });
});

describe('discovery under the whole-chain deadline', () => {
  it('a server that never answers interceptors/list is cut off by the deadline: fail-closed → timeout block', async () => {
    const stuck = new MemoryServerHandle('stuck', []);
    stuck.discover = () => new Promise(() => undefined);
    const r = await new ChainRuntime([stuck]).run('tools/call', 'request', call('x'), { timeoutMs: 60 });
    expect(r.decision).toBe('block');
    expect(r.trace.status).toBe('timeout');
    expect(r.trace.blockedBy?.server).toBe('stuck');
    expect(r.trace.discovery[0]).toMatchObject({ server: 'stuck', ok: false });
  });
});
