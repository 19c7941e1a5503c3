// A minimal stand-in for the `electron` module, for the main-process tests and desktop-csp.test.ts (the
// Electron runtime cannot be installed where the tests run). It models just what src/main/electron/ and the
// preload touch: windows with web contents and frames, ipcMain's handlers, the default session's hooks, the
// app's lifecycle events, the preload's contextBridge and ipcRenderer (which can be connected to a window's top
// frame). Each piece records what was done to it, so the tests can act as Chromium would (emit will-navigate,
// invoke a handler from some frame) and check what the real main-process code decided.
import { EventEmitter } from 'node:events';
import { pathToFileURL } from 'node:url';

let nextFrameId = 1;

export class FakeFrame {
  readonly frameTreeNodeId = nextFrameId++;
  readonly frameToken = `token-${this.frameTreeNodeId}`;
  readonly sent: unknown[][] = [];
  /** The renderer of this frame, once one is connected (ipcRenderer.connectTo): gets what is sent to it. */
  receiver?: (channel: string, ...args: unknown[]) => void;
  constructor(
    public url: string,
    public parent: FakeFrame | null = null,
  ) {}
  send(channel: string, ...args: unknown[]): void {
    this.sent.push([channel, ...args]);
    this.receiver?.(channel, ...args);
  }
}

export class FakeWebContents extends EventEmitter {
  readonly mainFrame: FakeFrame;
  windowOpenHandler?: (details: { url: string }) => { action: string };
  constructor(url = 'about:blank') {
    super();
    this.mainFrame = new FakeFrame(url);
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
  /** Emits a navigation event as Chromium would; returns whether the handlers prevented it. */
  navigate(kind: 'will-navigate' | 'will-redirect' | 'will-attach-webview', url: string): boolean {
    let prevented = false;
    this.emit(kind, { preventDefault: () => (prevented = true) }, url);
    return prevented;
  }
}

export class BrowserWindow extends EventEmitter {
  static readonly all: BrowserWindow[] = [];
  static getAllWindows(): BrowserWindow[] {
    return BrowserWindow.all.filter((w) => !w.destroyed);
  }
  readonly webContents = new FakeWebContents();
  destroyed = false;
  shown = false;
  constructor(readonly options: Record<string, unknown>) {
    super();
    BrowserWindow.all.push(this);
  }
  async loadFile(file: string): Promise<void> {
    // Chromium names a loaded file by its percent-encoded file: URL.
    this.webContents.mainFrame.url = pathToFileURL(file).href;
  }
  async loadURL(url: string): Promise<void> {
    this.webContents.mainFrame.url = url;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  isMinimized(): boolean {
    return false;
  }
  restore(): void {}
  focus(): void {}
  show(): void {
    this.shown = true;
  }
}

type Handler = (event: unknown, ...args: unknown[]) => unknown;
export const ipcMain = {
  handlers: new Map<string, Handler>(),
  handle(channel: string, handler: Handler): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, handler);
  },
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  },
};

export class FakeSession {
  permissionRequestHandler?: (wc: unknown, permission: string, callback: (granted: boolean) => void) => void;
  permissionCheckHandler?: (...args: unknown[]) => boolean;
  headersListener?: (
    details: { url: string; responseHeaders?: Record<string, string[]> },
    callback: (response: { responseHeaders?: Record<string, string[]> }) => void,
  ) => void;
  readonly webRequest = {
    onHeadersReceived: (listener: NonNullable<FakeSession['headersListener']>) => {
      this.headersListener = listener;
    },
  };
  setPermissionRequestHandler(handler: NonNullable<FakeSession['permissionRequestHandler']>): void {
    this.permissionRequestHandler = handler;
  }
  setPermissionCheckHandler(handler: NonNullable<FakeSession['permissionCheckHandler']>): void {
    this.permissionCheckHandler = handler;
  }
}

export const session = { defaultSession: new FakeSession() };

export const shell = {
  opened: [] as string[],
  async openExternal(url: string): Promise<void> {
    this.opened.push(url);
  },
  async openPath(): Promise<string> {
    return '';
  },
};

export const Menu = {
  menu: undefined as unknown,
  buildFromTemplate: (template: unknown) => template,
  setApplicationMenu(menu: unknown): void {
    Menu.menu = menu;
  },
};

export const dialog = {
  errors: [] as string[],
  showErrorBox(title: string, message: string): void {
    this.errors.push(`${title}: ${message}`);
  },
};

class FakeApp extends EventEmitter {
  readonly paths = new Map<string, string>();
  appPath = process.cwd();
  isPackaged = false;
  exitCode: number | undefined;
  readonly exited = new Promise<number>((resolve) => this.once('test:exit', resolve));
  requestSingleInstanceLock(): boolean {
    return true;
  }
  whenReady(): Promise<void> {
    return Promise.resolve();
  }
  getAppPath(): string {
    return this.appPath;
  }
  getPath(name: string): string {
    const path = this.paths.get(name);
    if (!path) throw new Error(`stand-in app has no path '${name}'`);
    return path;
  }
  setPath(name: string, path: string): void {
    this.paths.set(name, path);
  }
  getVersion(): string {
    return '0.0.0-stand-in';
  }
  quit(): void {
    this.emit('test:quit');
  }
  exit(code = 0): void {
    this.exitCode = code;
    this.emit('test:exit', code);
  }
}

export const app = new FakeApp();

/** The preload's side: what it exposes to the page, and the invokes it makes. */
export const contextBridge = {
  exposed: new Map<string, unknown>(),
  exposeInMainWorld(key: string, api: unknown): void {
    this.exposed.set(key, api);
  },
};

type RendererListener = (event: { sender: unknown }, ...args: unknown[]) => void;

/**
 * The preload's side of IPC. Alone, it records the invokes and answers each `{ ok: true, value: null }`.
 * Connected to a window (connectTo), it is that window's renderer, calling from its top frame: an invoke
 * reaches ipcMain's handler with the window's web contents as `sender` and its main frame as `senderFrame`
 * (what Electron fills in for a call from the top frame), and what the main process sends to that frame
 * reaches the listeners registered with on().
 */
export const ipcRenderer = {
  invoked: [] as unknown[][],
  window: undefined as BrowserWindow | undefined,
  listeners: new Map<string, Set<RendererListener>>(),
  connectTo(win: BrowserWindow): void {
    this.window = win;
    win.webContents.mainFrame.receiver = (channel, ...args) => {
      for (const listener of this.listeners.get(channel) ?? []) listener({ sender: this }, ...args);
    };
  },
  async invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    this.invoked.push([channel, ...args]);
    const win = this.window;
    if (!win) return { ok: true, value: null };
    const handler = ipcMain.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return handler({ sender: win.webContents, senderFrame: win.webContents.mainFrame }, ...args);
  },
  on(channel: string, listener: RendererListener): void {
    const set = this.listeners.get(channel) ?? new Set<RendererListener>();
    set.add(listener);
    this.listeners.set(channel, set);
  },
  removeListener(channel: string, listener: RendererListener): void {
    this.listeners.get(channel)?.delete(listener);
  },
};

export default { app, BrowserWindow, contextBridge, dialog, ipcMain, ipcRenderer, Menu, session, shell };
