// Smoke test of the desktop app through Playwright's _electron driver. The Electron runtime is not
// installed on this machine or in CI (ELECTRON_SKIP_BINARY_DOWNLOAD), so this skips with a message
// there; wherever `npx electron` works it launches the built app on a temporary data folder.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { _electron } from 'playwright-core';
import { ensureRendererBuilt, root } from './harness';

/**
 * The Electron binary, if installed. Reads the electron package's path.txt the way its index.js does,
 * without calling it: require('electron') tries to download a missing binary.
 */
function electronBinary(): string | undefined {
  const pkg = join(root, 'node_modules', 'electron');
  const pathFile = join(pkg, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const rel = readFileSync(pathFile, 'utf8').trim();
  const dist = process.env.ELECTRON_OVERRIDE_DIST_PATH ?? join(pkg, 'dist');
  const full = join(dist, rel);
  return existsSync(full) ? full : undefined;
}

const binary = electronBinary();
if (!binary) {
  console.warn('SKIPPED Electron smoke test: the Electron runtime is not installed (node_modules/electron has no binary). Web mode covers the same UI.');
}

describe.skipIf(!binary)('desktop app (Electron)', () => {
  it('opens the window on the Gateways page with only the typed bridge exposed', async () => {
    ensureRendererBuilt();
    const dataDir = mkdtempSync(join(tmpdir(), 'ic-electron-'));
    const app = await _electron.launch({
      executablePath: binary!,
      args: [join(root, 'out', 'main', 'index.js'), '--no-sandbox'],
      env: { ...process.env, INTERCEPTOR_CONSOLE_DATA: dataDir } as Record<string, string>,
    });
    try {
      const page = await app.firstWindow();
      await page.getByRole('heading', { name: 'Gateways', level: 1 }).waitFor();
      const exposed = await page.evaluate(async () => ({
        bridge: Object.keys(window.interceptorConsole ?? {}).sort(),
        require: typeof (globalThis as Record<string, unknown>).require,
        process: typeof (globalThis as Record<string, unknown>).process,
        info: await window.interceptorConsole!.invoke('app.info', {}),
        bad: await window.interceptorConsole!.invoke('gateways.get', { id: 42 }),
      }));
      expect(exposed.bridge).toEqual(['invoke', 'onEvent']);
      expect(exposed.require).toBe('undefined');
      expect(exposed.process).toBe('undefined');
      expect(exposed.info).toMatchObject({ ok: true, value: { mode: 'electron', dataDir } });
      expect(exposed.bad).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
      // Navigation away from the app is blocked.
      await page.evaluate(() => {
        location.href = 'https://example.com/';
      });
      await page.waitForTimeout(500);
      expect(page.url()).toMatch(/^file:/);
    } finally {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
