import type {
  AppLike,
  NoticeLike,
  PreventableEvent,
  Rect,
  ShellPlatform,
  TrayLike,
  TrayMenuItem,
  WebContentsLike,
  WindowLike,
  WindowOptions,
} from '../../../main/electron/electron-like.js';

/** A recording stand-in for Electron: the shell under test drives it like the real module. */
export class FakeEvent implements PreventableEvent {
  prevented = false;
  preventDefault(): void {
    this.prevented = true;
  }
}

type Listener = (...args: any[]) => void;

export class FakeWebContents implements WebContentsLike {
  static next = 1;
  readonly id = FakeWebContents.next++;
  url = '';
  listeners = new Map<string, Listener[]>();
  openHandler: ((d: { url: string }) => { action: 'deny' } | { action: 'allow' }) | null = null;
  executed: string[] = [];
  getURL = () => this.url;
  on(event: string, listener: Listener): void {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
  }
  emit(event: string, ...args: unknown[]): void {
    for (const l of this.listeners.get(event) ?? []) l(...args);
  }
  setWindowOpenHandler(handler: (d: { url: string }) => { action: 'deny' } | { action: 'allow' }): void {
    this.openHandler = handler;
  }
  async executeJavaScript(code: string): Promise<unknown> {
    this.executed.push(code);
    return undefined;
  }
}

export class FakeWindow implements WindowLike {
  readonly webContents = new FakeWebContents();
  loaded: string[] = [];
  shown = 0;
  focused = false;
  minimized = false;
  maximized = false;
  destroyed = false;
  bounds: Rect;
  private handlers = new Map<string, Listener[]>();
  constructor(readonly options: WindowOptions) {
    this.bounds = { x: options.x ?? 0, y: options.y ?? 0, width: options.width, height: options.height };
  }
  async loadURL(url: string): Promise<void> {
    this.loaded.push(url);
    this.webContents.url = url;
  }
  show = () => void this.shown++;
  focus = () => void (this.focused = true);
  restore = () => void (this.minimized = false);
  maximize = () => void (this.maximized = true);
  isMinimized = () => this.minimized;
  isMaximized = () => this.maximized;
  isFocused = () => this.focused;
  isDestroyed = () => this.destroyed;
  getNormalBounds = () => this.bounds;
  once(event: string, listener: Listener): void {
    this.on(event, listener);
  }
  on(event: string, listener: Listener): void {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), listener]);
  }
  emit(event: string): void {
    for (const l of this.handlers.get(event) ?? []) l();
  }
  close(): void {
    this.emit('close');
    this.destroyed = true;
    this.emit('closed');
  }
}

export class FakeTray implements TrayLike {
  tooltip = '';
  title = '';
  menu: readonly TrayMenuItem[] = [];
  clicks: (() => void)[] = [];
  constructor(readonly icon: Buffer) {}
  setToolTip = (t: string) => void (this.tooltip = t);
  setTitle = (t: string) => void (this.title = t);
  setMenu = (items: readonly TrayMenuItem[]) => void (this.menu = items);
  onClick = (l: () => void) => void this.clicks.push(l);
}

export class FakeApp implements AppLike {
  lockFree = true;
  quitCalls = 0;
  exitCodes: number[] = [];
  readonly isPackaged = false;
  listeners = new Map<string, Listener[]>();
  requestSingleInstanceLock = () => this.lockFree;
  on(event: string, listener: Listener): void {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
  }
  emit(event: string, ...args: unknown[]): void {
    for (const l of this.listeners.get(event) ?? []) l(...args);
  }
  /** Like Electron: quit() fires before-quit, and quits unless a listener prevents it. */
  quit(): void {
    this.quitCalls++;
    const event = new FakeEvent();
    this.emit('before-quit', event);
    if (!event.prevented) this.quitted = true;
  }
  quitted = false;
  exit = (code: number) => void this.exitCodes.push(code);
  getVersion = () => '9.9.9';
}

export class FakePlatform implements ShellPlatform {
  app = new FakeApp();
  platform: NodeJS.Platform = 'linux';
  windows: FakeWindow[] = [];
  trays: FakeTray[] = [];
  opened: string[] = [];
  revealed: string[] = [];
  notices: { notice: NoticeLike; click: () => void }[] = [];
  errors: string[] = [];
  supported = true;
  displayAreas: Rect[] = [{ x: 0, y: 0, width: 1920, height: 1080 }];
  headerHooks: { urls: string[]; listener: (d: { url: string; responseHeaders?: Record<string, string | string[]> }) => Record<string, string | string[]> }[] = [];
  permissionRequest: ((p: string, url: string) => boolean) | null = null;
  permissionCheck: ((p: string, origin: string) => boolean) | null = null;
  sync = new Map<string, (senderUrl: string) => unknown>();
  handlers = new Map<string, (senderUrl: string, ...args: unknown[]) => unknown>();
  contentsListeners: ((c: WebContentsLike) => void)[] = [];

  createWindow = (options: WindowOptions) => {
    const w = new FakeWindow(options);
    this.windows.push(w);
    for (const l of this.contentsListeners) l(w.webContents);
    return w;
  };
  session = {
    onHeadersReceived: (urls: string[], listener: FakePlatform['headerHooks'][number]['listener']) => void this.headerHooks.push({ urls, listener }),
    setPermissionRequestHandler: (h: (p: string, url: string) => boolean) => void (this.permissionRequest = h),
    setPermissionCheckHandler: (h: (p: string, origin: string) => boolean) => void (this.permissionCheck = h),
  };
  ipc = {
    onSync: (channel: string, handler: (senderUrl: string) => unknown) => void this.sync.set(channel, handler),
    handle: (channel: string, handler: (senderUrl: string, ...args: unknown[]) => unknown) => void this.handlers.set(channel, handler),
  };
  onWebContentsCreated = (l: (c: WebContentsLike) => void) => void this.contentsListeners.push(l);
  openExternal = async (url: string) => void this.opened.push(url);
  showItemInFolder = (p: string) => void this.revealed.push(p);
  /** Folders opened with shell.openPath. */
  openedPaths: string[] = [];
  openPath = async (p: string) => (this.openedPaths.push(p), '');
  /** What the folder chooser answers next (null: cancelled), and what it was asked. */
  nextFolder: string | null = null;
  folderRequests: { window: WindowLike | null; options: { title: string; defaultPath?: string } }[] = [];
  pickFolder = async (window: WindowLike | null, options: { title: string; defaultPath?: string }) => (this.folderRequests.push({ window, options }), this.nextFolder);
  createTray = (icon: Buffer) => {
    const t = new FakeTray(icon);
    this.trays.push(t);
    return t;
  };
  notificationsSupported = () => this.supported;
  notify = (notice: NoticeLike, click: () => void) => void this.notices.push({ notice, click });
  displays = () => this.displayAreas;
  primaryWorkArea = () => this.displayAreas[0]!;
  showErrorBox = (title: string, message: string) => void this.errors.push(`${title}: ${message}`);
}
