// [desktop-client] item 4: environment variables and any headers for the built-in client's connections.
import { describe, expect, it } from 'vitest';
import { parseEnvLines, parseHeaderLines } from '../../src/renderer/src/pages/playground/client/connection-fields';

describe('the Client tab connection fields', () => {
  it('reads NAME=value lines (blank and # lines skipped), values kept as written', () => {
    expect(parseEnvLines('A=1\n\n# note\n B_2 = x=y \r\nEMPTY=')).toEqual({ A: '1', B_2: ' x=y', EMPTY: '' });
    expect(() => parseEnvLines('A=1\nnot a pair')).toThrow('Environment, line 2: write NAME=value (got "not a pair")');
    expect(() => parseEnvLines('1A=x')).toThrow('line 1');
  });

  it('reads Name: value header lines, and refuses a name HTTP does not allow', () => {
    expect(parseHeaderLines('X-Api-Key: abc\nX-Trace:  t:1 ')).toEqual({ 'X-Api-Key': 'abc', 'X-Trace': 't:1' });
    expect(() => parseHeaderLines('Bad Header: x')).toThrow('Headers, line 1: write Name: value');
  });
});
