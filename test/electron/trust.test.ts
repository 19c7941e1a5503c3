// The IPC sender check of the Electron shell (the part that does not need the Electron runtime).
import { describe, expect, it } from 'vitest';
import { isTrustedFrame, trustedPrefix } from '../../src/main/electron/trust';

describe('IPC sender frame check', () => {
  const prefix = trustedPrefix('/opt/Interceptor Console/resources/app.asar/out/renderer/index.html', '');

  it('builds a file:// prefix for the bundled page (POSIX and Windows paths)', () => {
    expect(prefix).toBe('file:///opt/Interceptor Console/resources/app.asar/out/renderer/index.html');
    expect(trustedPrefix('C:\\Program Files\\IC\\out\\renderer\\index.html', '')).toBe('file:///C:/Program Files/IC/out/renderer/index.html');
    expect(trustedPrefix('/x/index.html', 'http://localhost:5173/some/path')).toBe('http://localhost:5173/');
  });

  it('trusts our page in the top frame, with a route hash', () => {
    expect(isTrustedFrame({ url: prefix, parent: null }, prefix)).toBe(true);
    expect(isTrustedFrame({ url: `${prefix}#/gateways`, parent: null }, prefix)).toBe(true);
  });

  it('refuses iframes, other files, other pages and missing frames', () => {
    expect(isTrustedFrame({ url: prefix, parent: { url: prefix } }, prefix)).toBe(false);
    expect(isTrustedFrame({ url: `${prefix}.evil.html`, parent: null }, prefix)).toBe(false);
    expect(isTrustedFrame({ url: 'file:///tmp/evil.html', parent: null }, prefix)).toBe(false);
    expect(isTrustedFrame({ url: 'https://example.com/', parent: null }, prefix)).toBe(false);
    expect(isTrustedFrame(null, prefix)).toBe(false);
  });

  it('in development trusts the dev server origin only', () => {
    const dev = trustedPrefix('/x/index.html', 'http://localhost:5173/');
    expect(isTrustedFrame({ url: 'http://localhost:5173/#/chain', parent: null }, dev)).toBe(true);
    expect(isTrustedFrame({ url: 'http://localhost:5174/', parent: null }, dev)).toBe(false);
    expect(isTrustedFrame({ url: 'http://localhost:5173.evil.test/', parent: null }, dev)).toBe(false);
  });
});
