// Electron main process entry. This folder is the only place that imports `electron`: the core it
// runs (services, dispatcher, gateways, store) is the same one web mode and the CLI run.
import { app, BrowserWindow, dialog, session } from 'electron';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootstrapCore } from '../services/bootstrap';
import { adoptElectronSqliteBinding } from '../native/sqlite-binding';
import { cliLaunchFor, defaultDataDir, stderrLogger } from '../services/environment';
import { desktopDataDir } from './data-folder';
import type { AppCore } from '../services/app-core';
import { registerIpc } from './ipc';
import { installMenu } from './menu';
import { desktopCsp, hardenSession, hardenWindow, trustedPrefix } from './security';
import { STYLE_NONCE_ARG } from '../../shared/api/bridge';

const here = fileURLToPath(new URL('.', import.meta.url));
const rendererFile = join(here, '../renderer/index.html');
const prefix = trustedPrefix(rendererFile);
// This run's CSP nonce for <style> elements: in the session's CSP header and, through the preload, CodeMirror's.
const styleNonce = randomBytes(16).toString('base64');
let core: AppCore | undefined;
let mainWindow: BrowserWindow | undefined;
let quitting = false;

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 560,
    title: 'Interceptor Console',
    show: false,
    webPreferences: {
      // electronegativity-justified PRELOAD_JS_CHECK: the preload is our own bundled file, sandboxed and
      // context-isolated; it exposes two functions (invoke, onEvent) and never ipcRenderer or Node objects.
      preload: join(here, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webviewTag: false,
      spellcheck: false,
      // Middle-click must not open links in a new window (the window-open handler denies them anyway).
      disableBlinkFeatures: 'Auxclick',
      additionalArguments: [`${STYLE_NONCE_ARG}${styleNonce}`],
    },
  });
  hardenWindow(win, prefix);
  win.once('ready-to-show', () => win.show());
  if (process.env.ELECTRON_RENDERER_URL) void win.loadURL(process.env.ELECTRON_RENDERER_URL);
  else void win.loadFile(rendererFile);
  return win;
}

async function start(): Promise<void> {
  const appRoot = app.getAppPath();
  const logger = stderrLogger('interceptor-console');
  // The folder web mode and the CLI use too (an older desktop build's userData folder only while it holds the data).
  const { dir: dataDir, warning } = desktopDataDir(defaultDataDir(), app.getPath('userData'));
  if (warning) logger.warn(warning);
  // From a checkout, better-sqlite3's own build has Node's ABI: the history loads the Electron copy instead
  // (native/electron-<abi>/, made by `npm run electron:sqlite`, which `npm start` runs), else says what to run.
  adoptElectronSqliteBinding(appRoot, app.isPackaged);
  core = await bootstrapCore({
    mode: 'electron',
    packageRoot: appRoot,
    dataDir,
    version: app.getVersion(),
    logger,
    // Children run our CLI with this very binary acting as Node (ELECTRON_RUN_AS_NODE).
    cli: cliLaunchFor(join(appRoot, 'out', 'cli', 'index.js')),
    // Packaged resources (examples, schema) sit outside the asar archive.
    resourcesDir: app.isPackaged ? join(process.resourcesPath, 'resources') : join(appRoot, 'resources'),
  });
  hardenSession(session.defaultSession, desktopCsp(styleNonce));
  installMenu(dataDir);
  registerIpc(core, () => BrowserWindow.getAllWindows(), prefix);
  mainWindow = createWindow();
  core.start().catch((err: unknown) => core?.env.logger.error('starting gateways failed', err));
}

// Tests and portable setups may point the data folder elsewhere (defaultDataDir reads the same variable);
// Electron's own folder follows it, and it must be set before the lock.
if (process.env.INTERCEPTOR_CONSOLE_DATA) app.setPath('userData', process.env.INTERCEPTOR_CONSOLE_DATA);

if (!app.requestSingleInstanceLock()) {
  // Another instance owns the data folder and the gateways' ports: focus it instead.
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!mainWindow || mainWindow.isDestroyed()) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app.whenReady().then(start, (err: unknown) => {
    dialog.showErrorBox('Interceptor Console could not start', err instanceof Error ? err.message : String(err));
    app.exit(1);
  });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0 && core) mainWindow = createWindow();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  // On quit: stop gateways (killing their child servers), close connections, flush the store, then exit.
  app.on('before-quit', (event) => {
    if (quitting || !core) return;
    event.preventDefault();
    quitting = true;
    const timeout = setTimeout(() => app.exit(0), 10_000);
    void core.shutdown().finally(() => {
      clearTimeout(timeout);
      app.exit(0);
    });
  });
}
