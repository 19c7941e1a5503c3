// The breakpoint model on its own: the config schema (defaults, `when` implying the after-chain points,
// errors that say what to write), the `method[:target]` form, and matching by method, target, principal
// and chain outcome, off when there are none.
import { describe, expect, it } from 'vitest';
import { BreakpointSchema, parseBreakSpec, parseGatewayConfig } from '../../src/shared/config';
import { GatewayBreakpoints } from '../../src/main/gateway/breakpoints/breakpoint-set';
import type { ChainTrace } from '../../src/shared/trace/types';

const bp = (input: Record<string, unknown>) => BreakpointSchema.parse(input);

describe('breakpoint model', () => {
  it('defaults: enabled, before the request chain, 30 s then continue; `when` moves it after the chains', () => {
    expect(bp({ method: 'tools/call' })).toMatchObject({ enabled: true, at: ['request-before-chain'], timeoutMs: 30_000, onTimeout: 'continue', step: false });
    expect(bp({ when: { blockedBy: 'pii-validator' } }).at).toEqual(['request-after-chain', 'response-after-chain']);
    expect(bp({ at: 'response-before-chain' }).at).toEqual(['response-before-chain']);
  });

  it('a config with breakpoints is validated with errors that say what to write; none is the default', () => {
    const backend = { transport: 'stdio', name: 'b', command: 'x' };
    const ok = parseGatewayConfig({ backend });
    expect(ok.ok && ok.config.breakpoints).toEqual([]);
    const bad = parseGatewayConfig({ backend, breakpoints: [{ at: 'before-backend', onTimeout: 'wait' }] });
    expect(bad.ok).toBe(false);
    const text = JSON.stringify(!bad.ok && bad.errors);
    expect(text).toContain('expected one of \\"request-before-chain\\"');
    expect(text).toContain('expected \\"continue\\" or \\"block\\"');
    expect(parseGatewayConfig({ backend, control: { port: 0, token: 'short' } }).ok).toBe(false);
  });

  it('method[:target], as --break and the console write it', () => {
    expect(parseBreakSpec('tools/call:echo')).toMatchObject({ method: 'tools/call', target: 'echo' });
    expect(parseBreakSpec('resources/read:test://static/*')).toMatchObject({ method: 'resources/read', target: 'test://static/*' });
    expect(parseBreakSpec('tools/*').target).toBeUndefined();
    expect(() => parseBreakSpec(':echo')).toThrow(/method before ':'/);
  });

  it('matches method and target globs, the principal case-insensitively, and after a chain its outcome', () => {
    let list = [
      bp({ id: 'echo', method: 'tools/*', target: 'ech?' }),
      bp({ id: 'alice', method: 'prompts/get', principal: 'Alice' }),
      bp({ id: 'pii', method: '*', when: { blockedBy: 'pii-*' } }),
      bp({ id: 'off', method: '*', enabled: false }),
    ];
    const set = new GatewayBreakpoints(() => list);
    const subject = (method: string, target?: string, principal?: string) => ({ method, target, principal });
    expect(set.match('request-before-chain', subject('tools/call', 'echo'))?.id).toBe('echo');
    expect(set.match('request-before-chain', subject('tools/call', 'echoes'))).toBeUndefined();
    expect(set.match('request-before-chain', subject('prompts/get', 'p', 'alice'))?.id).toBe('alice');
    expect(set.match('request-before-chain', subject('prompts/get', 'p', 'bob'))).toBeUndefined();
    const blocked = { decision: 'block', modified: false, blockedBy: { server: 'samples', interceptor: 'pii-validator' } } as unknown as ChainTrace;
    const allowed = { decision: 'allow', modified: false } as unknown as ChainTrace;
    expect(set.match('request-after-chain', { ...subject('resources/read'), trace: blocked })?.id).toBe('pii');
    expect(set.match('request-after-chain', { ...subject('resources/read'), trace: allowed })).toBeUndefined();
    expect(set.match('request-before-chain', { ...subject('resources/read'), trace: blocked })).toBeUndefined();
    expect(set.concerns(subject('resources/list'))).toBe(true); // the pii breakpoint could match after its chain
    expect(set.concerns(subject('ping'))).toBe(false); // housekeeping: only a breakpoint naming it exactly
    list = [];
    expect(set.empty).toBe(true);
    expect(set.concerns(subject('tools/call', 'echo'))).toBe(false);
  });
});
