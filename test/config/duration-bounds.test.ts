// Every millisecond field of the gateway config ends up in a Node timer, which fires after 1 ms past
// 2^31-1 ms (~24.8 days): a chain timeoutMs of 3,000,000,000 loaded and cut every chain off at once; a
// backendTimeoutMs that large loaded and meant no deadline at all. Each such field is at most 24 h (the
// breakpoints' rule); more is refused naming the field, by the parser and by a real gateway start.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseGatewayConfig } from '../../src/shared/config';
import { cliPath, everythingBackend, writeConfig } from '../gateway/helpers';

const DAY_MS = 86_400_000;
const TOO_LONG = 3_000_000_000;

/** Each duration field, as a config that sets it to `ms`, and the path an error names. */
const FIELDS: { path: string; config: (ms: number) => Record<string, unknown> }[] = [
  { path: 'backendTimeoutMs', config: (ms) => ({ backendTimeoutMs: ms }) },
  { path: 'backendMethodTimeoutsMs["tools/call"]', config: (ms) => ({ backendMethodTimeoutsMs: { 'tools/call': ms } }) },
  { path: 'drainTimeoutMs', config: (ms) => ({ drainTimeoutMs: ms }) },
  { path: 'timeoutMs', config: (ms) => ({ timeoutMs: ms }) },
  { path: 'overrides["samples/pii-redactor"].timeoutMs', config: (ms) => ({ overrides: { 'samples/pii-redactor': { timeoutMs: ms } } }) },
  { path: 'listen.sessionIdleTimeoutMs', config: (ms) => ({ listen: { transport: 'http', port: 0, sessionIdleTimeoutMs: ms } }) },
  { path: 'breakpoints[0].timeoutMs', config: (ms) => ({ breakpoints: [{ method: 'tools/call', timeoutMs: ms }] }) },
];

describe('millisecond fields are at most 24 h', () => {
  for (const field of FIELDS) {
    it(`${field.path}: 3,000,000,000 is refused naming the field; 86,400,000 is taken`, () => {
      const refused = parseGatewayConfig({ backend: everythingBackend, ...field.config(TOO_LONG) });
      expect(refused.ok).toBe(false);
      if (refused.ok) return;
      expect(refused.errors).toEqual([{ path: field.path, message: expect.stringContaining(`at most ${DAY_MS} ms (24 h)`) }]);
      expect(parseGatewayConfig({ backend: everythingBackend, ...field.config(DAY_MS) }).ok).toBe(true);
    });
  }

  it('a gateway whose config has backendTimeoutMs 3,000,000,000 does not start, and says which field', () => {
    const file = writeConfig({ backend: everythingBackend, backendTimeoutMs: TOO_LONG });
    const run = spawnSync(process.execPath, [cliPath, 'gateway', '--config', file, '--no-record', '--no-watch'], {
      encoding: 'utf8',
      timeout: 30_000,
      input: '',
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('backendTimeoutMs');
    expect(run.stderr).toContain(`at most ${DAY_MS} ms (24 h)`);
  });
});
