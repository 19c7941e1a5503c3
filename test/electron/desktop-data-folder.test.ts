// One data folder for the desktop app, web mode and the CLI. The desktop app used Electron's userData folder
// while web mode and the CLI used defaultDataDir(), so a setting, gateway or history switch made in one was
// never seen by the other (the Settings screen says they apply alike). And an empty or relative
// XDG_DATA_HOME put the history into `./interceptor-console` of the folder the console started in.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { IPC_INVOKE_CHANNEL } from '../../src/shared/api/bridge';
import { defaultDataDir } from '../../src/main/history/model/data-dir';
import { desktopDataDir } from '../../src/main/electron/data-folder';
import { tempDir } from '../app/helpers';
import { app, BrowserWindow, ipcMain } from './electron-stand-in';
import { quitMainProcess, startMainProcess } from './start-main';

vi.mock('electron', async () => await import('./electron-stand-in'));

describe('defaultDataDir', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('uses an absolute XDG_DATA_HOME and ignores an empty or relative one, as the XDG spec says', () => {
    vi.stubEnv('INTERCEPTOR_CONSOLE_DATA', '');
    vi.stubEnv('HOME', '/home/someone');
    vi.stubEnv('XDG_DATA_HOME', '/data/xdg');
    expect(defaultDataDir()).toBe('/data/xdg/interceptor-console');
    for (const ignored of ['', 'relative/share', '.']) {
      vi.stubEnv('XDG_DATA_HOME', ignored);
      expect(defaultDataDir(), `XDG_DATA_HOME=${JSON.stringify(ignored)}`).toBe('/home/someone/.local/share/interceptor-console');
    }
  });

  it('on Windows, ignores an empty APPDATA', () => {
    const platform = Object.getOwnPropertyDescriptor(process, 'platform')!;
    Object.defineProperty(process, 'platform', { value: 'win32' });
    try {
      vi.stubEnv('INTERCEPTOR_CONSOLE_DATA', '');
      vi.stubEnv('HOME', '/home/someone');
      vi.stubEnv('APPDATA', '');
      expect(defaultDataDir()).toBe(join('/home/someone', 'AppData', 'Roaming', 'interceptor-console'));
    } finally {
      Object.defineProperty(process, 'platform', platform);
    }
  });

  it('INTERCEPTOR_CONSOLE_DATA wins', () => {
    vi.stubEnv('INTERCEPTOR_CONSOLE_DATA', '/portable/data');
    vi.stubEnv('XDG_DATA_HOME', '/data/xdg');
    expect(defaultDataDir()).toBe('/portable/data');
  });
});

describe('desktopDataDir', () => {
  const t = tempDir('ic-desktop-data-');
  const shared = join(t.dir, 'shared');
  const legacy = join(t.dir, 'legacy');
  afterAll(() => t.cleanup());

  it('is the shared folder, also while neither holds anything or when both are the same', () => {
    expect(desktopDataDir(shared, legacy)).toEqual({ dir: shared });
    expect(desktopDataDir(shared, `${shared}/`)).toEqual({ dir: shared });
    // Electron's own profile files in userData are not ours.
    mkdirSync(join(legacy, 'Local Storage'), { recursive: true });
    expect(desktopDataDir(shared, legacy)).toEqual({ dir: shared });
  });

  it("keeps an older desktop build's userData folder while only it holds the data, and says how to move it", () => {
    mkdirSync(join(legacy, 'gateways'), { recursive: true });
    writeFileSync(join(legacy, 'history.db'), '');
    const choice = desktopDataDir(shared, legacy);
    expect(choice.dir).toBe(legacy);
    expect(choice.warning).toContain(`web mode and the CLI use ${shared}`);
    expect(choice.warning).toMatch(/move that folder's settings\.json, history\.db\* and gateways\/ into/);
    // Once the shared folder has data of its own, that is the one.
    mkdirSync(shared, { recursive: true });
    writeFileSync(join(shared, 'settings.json'), '{}');
    expect(desktopDataDir(shared, legacy)).toEqual({ dir: shared });
  });
});

describe("main.ts runs its core on web mode's and the CLI's data folder", () => {
  const t = tempDir('ic-electron-data-');
  const xdg = join(t.dir, 'xdg');
  const shared = join(xdg, 'interceptor-console');

  beforeAll(async () => {
    mkdirSync(shared, { recursive: true });
    writeFileSync(join(shared, 'settings.json'), JSON.stringify({ demoGateway: false }));
    vi.stubEnv('INTERCEPTOR_CONSOLE_DATA', '');
    vi.stubEnv('XDG_DATA_HOME', xdg);
    // Electron's own folder (~/.config/<app> on Linux), which is not where web mode looks.
    app.setPath('userData', join(t.dir, 'electron-user-data'));
    await startMainProcess();
  }, 60_000);

  afterAll(async () => {
    await quitMainProcess();
    vi.unstubAllEnvs();
    t.cleanup();
  }, 30_000);

  it('reports the shared folder and its history.db, not the userData folder', async () => {
    const win = BrowserWindow.all.at(-1)!;
    const handler = ipcMain.handlers.get(IPC_INVOKE_CHANNEL)!;
    const info = (await handler({ sender: win.webContents, senderFrame: win.webContents.mainFrame }, 'app.info', {})) as {
      ok: true;
      value: { dataDir: string; dbPath: string };
    };
    expect(info.value.dataDir).toBe(shared);
    expect(info.value.dbPath).toBe(join(shared, 'history.db'));
  });
});
