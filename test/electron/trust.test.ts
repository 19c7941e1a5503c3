// The IPC sender check of the Electron shell and which links it hands to the system browser (the parts
// that do not need the Electron runtime).
import { describe, expect, it } from 'vitest';
import { isTrustedFrame, opensInSystemBrowser, trustedPrefix } from '../../src/main/electron/trust';

describe('IPC sender frame check', () => {
  const prefix = trustedPrefix('/opt/Interceptor Console/resources/app.asar/out/renderer/index.html', '');

  it('builds a file:// prefix for the bundled page (POSIX and Windows paths)', () => {
    // Percent-encoded as Chromium reports frame URLs: the default Linux install path has a space in it.
    expect(prefix).toBe('file:///opt/Interceptor%20Console/resources/app.asar/out/renderer/index.html');
    expect(trustedPrefix('C:\\Program Files\\IC\\out\\renderer\\index.html', '')).toBe('file:///C:/Program%20Files/IC/out/renderer/index.html');
    expect(trustedPrefix('/x/index.html', 'http://localhost:5173/some/path')).toBe('http://localhost:5173/');
  });

  it('trusts our page in the top frame, with a route hash', () => {
    expect(isTrustedFrame({ url: prefix, parent: null }, prefix)).toBe(true);
    expect(isTrustedFrame({ url: `${prefix}#/gateways`, parent: null }, prefix)).toBe(true);
    // The URL Chromium reports for a page in a folder with a space (refused before: the prefix was not encoded).
    expect(isTrustedFrame({ url: 'file:///opt/Interceptor%20Console/resources/app.asar/out/renderer/index.html', parent: null }, prefix)).toBe(true);
  });

  it('refuses iframes, other files, other pages and missing frames', () => {
    expect(isTrustedFrame({ url: prefix, parent: { url: prefix } }, prefix)).toBe(false);
    expect(isTrustedFrame({ url: `${prefix}.evil.html`, parent: null }, prefix)).toBe(false);
    expect(isTrustedFrame({ url: 'file:///tmp/evil.html', parent: null }, prefix)).toBe(false);
    expect(isTrustedFrame({ url: prefix.replace('/index.html', '/index.html/../evil.html'), parent: null }, prefix)).toBe(false);
    expect(isTrustedFrame({ url: 'file://evil-host/opt/Interceptor%20Console/resources/app.asar/out/renderer/index.html', parent: null }, prefix)).toBe(false);
    expect(isTrustedFrame({ url: 'not a url', parent: null }, prefix)).toBe(false);
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

describe('links opened in the system browser', () => {
  it('opens https anywhere and http only on this machine (an OAuth authorization page under development)', () => {
    expect(opensInSystemBrowser('https://auth.example.com/authorize?client_id=x')).toBe(true);
    expect(opensInSystemBrowser('http://127.0.0.1:4000/authorize?state=s')).toBe(true);
    expect(opensInSystemBrowser('http://localhost:4000/authorize')).toBe(true);
    expect(opensInSystemBrowser('http://[::1]:4000/authorize')).toBe(true);
  });

  it('refuses http elsewhere, other schemes and what is not a URL', () => {
    expect(opensInSystemBrowser('http://auth.example.com/authorize')).toBe(false);
    expect(opensInSystemBrowser('http://127.0.0.1.evil.test/')).toBe(false);
    expect(opensInSystemBrowser('file:///etc/passwd')).toBe(false);
    expect(opensInSystemBrowser('smb://host/share')).toBe(false);
    expect(opensInSystemBrowser('vscode://open?x')).toBe(false);
    expect(opensInSystemBrowser('not a url')).toBe(false);
  });
});
