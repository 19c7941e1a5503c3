// The one computation of an interceptor's effective settings (declared + A11 override) that the chain
// planner runs on and every Chain/Playground view shows: values and where each comes from.
import { describe, expect, it } from 'vitest';
import { effectiveSettings, labelled } from '../../src/shared/config/effective-settings';
import { planEntry } from '../../src/main/interceptors/chain/order';

describe('effectiveSettings', () => {
  it('takes each override field over the declared one, and says which won', () => {
    const e = effectiveSettings({ mode: 'active', failOpen: false, priorityHint: -1000 }, { failOpen: true, priorityHint: -2000000 });
    expect(e.failOpen).toEqual({ value: true, source: 'override' });
    expect(e.mode).toEqual({ value: 'active', source: 'declared' });
    expect(e.priority.request).toEqual({ value: -2000000, source: 'override' });
    expect(e.enabled).toEqual({ value: true, source: 'declared' });
    expect(labelled(e.priority.request, 'priority -2000000')).toBe('priority -2000000 (override)');
  });

  it('reads the legacy enforce as active, defaults to active/fail-closed/0, and a per-phase override replaces the hint as a whole', () => {
    expect(effectiveSettings({ mode: 'enforce' }, undefined).mode).toEqual({ value: 'active', source: 'declared' });
    const e = effectiveSettings({ priorityHint: { request: 5, response: 7 } }, { priorityHint: { request: 1 } });
    expect(e.priority.request.value).toBe(1);
    expect(e.priority.response).toEqual({ value: 0, source: 'override' });
    expect(effectiveSettings(undefined, { enabled: false }).enabled).toEqual({ value: false, source: 'override' });
  });

  it('is what the chain planner runs with', () => {
    const descriptor = { name: 'x', type: 'mutation', hooks: [{ events: ['tools/call'], phase: 'request' }], failOpen: false, priorityHint: -1000 } as const;
    const item = { server: 's', serverIndex: 0, listIndex: 0, descriptor } as unknown as Parameters<typeof planEntry>[0];
    const entry = planEntry(item, 'request', { overrides: { 's/x': { failOpen: true, priorityHint: -2000000, mode: 'audit' } } });
    const e = effectiveSettings(descriptor, { failOpen: true, priorityHint: -2000000, mode: 'audit' });
    expect({ failOpen: entry.failOpen, priority: entry.priority, mode: entry.mode }).toEqual({
      failOpen: e.failOpen.value,
      priority: e.priority.request.value,
      mode: e.mode.value,
    });
    expect(entry).toMatchObject({ failOpen: true, priority: -2000000, mode: 'audit' });
  });
});
