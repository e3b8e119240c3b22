/**
 * Stand-in types for `electron`, used only when the package is not installed (it is an
 * optionalDependency whose binary cannot always download). tsconfig.json maps `electron` to the
 * real package first and to this file second, so with Electron installed main.ts and the preload
 * are checked against the real API, and without it they still typecheck and build. Declares only
 * what main/electron/main.ts and preload/index.cts use, with the real signatures' shapes.
 */
/// <reference types="node" />

interface ElectronEvent {
  preventDefault(): void;
  readonly defaultPrevented: boolean;
}
interface ElectronRectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

export declare class NativeImage {
  isEmpty(): boolean;
}
export declare const nativeImage: { createFromBuffer(buffer: Buffer): NativeImage };

export declare class WebContents {
  readonly id: number;
  getURL(): string;
  on(event: 'will-navigate' | 'will-redirect', listener: (event: ElectronEvent, url: string) => void): this;
  on(event: 'will-attach-webview', listener: (event: ElectronEvent) => void): this;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' } | { action: 'allow' }): void;
  executeJavaScript(code: string): Promise<unknown>;
}

export declare class BrowserWindow {
  constructor(options: Record<string, unknown>);
  readonly webContents: WebContents;
  loadURL(url: string): Promise<void>;
  show(): void;
  focus(): void;
  restore(): void;
  maximize(): void;
  isMinimized(): boolean;
  isMaximized(): boolean;
  isFocused(): boolean;
  isDestroyed(): boolean;
  getNormalBounds(): ElectronRectangle;
  once(event: 'ready-to-show', listener: () => void): this;
  on(event: 'close' | 'closed', listener: () => void): this;
}

export declare const app: {
  readonly isPackaged: boolean;
  requestSingleInstanceLock(): boolean;
  on(event: 'before-quit', listener: (event: ElectronEvent) => void): unknown;
  on(event: 'second-instance' | 'window-all-closed' | 'activate', listener: () => void): unknown;
  on(event: 'web-contents-created', listener: (event: ElectronEvent, contents: WebContents) => void): unknown;
  quit(): void;
  exit(code?: number): void;
  getVersion(): string;
  setName(name: string): void;
  setPath(name: 'userData', path: string): void;
  setAppUserModelId(id: string): void;
  enableSandbox(): void;
  whenReady(): Promise<void>;
};

export declare class Menu {
  static buildFromTemplate(template: Array<{ label?: string; enabled?: boolean; click?: () => void; type?: 'separator' }>): Menu;
}

export declare class Tray {
  constructor(image: NativeImage);
  setToolTip(text: string): void;
  setTitle(text: string): void;
  setContextMenu(menu: Menu | null): void;
  on(event: 'click', listener: () => void): this;
}

export declare class Notification {
  static isSupported(): boolean;
  constructor(options: { title: string; body: string });
  on(event: 'click' | 'close', listener: () => void): this;
  show(): void;
}

interface OpenDialogOptions {
  title?: string;
  defaultPath?: string;
  buttonLabel?: string;
  properties: Array<'openDirectory' | 'createDirectory' | 'openFile'>;
}
export declare const dialog: {
  showErrorBox(title: string, content: string): void;
  showOpenDialog(window: BrowserWindow, options: OpenDialogOptions): Promise<{ canceled: boolean; filePaths: string[] }>;
  showOpenDialog(options: OpenDialogOptions): Promise<{ canceled: boolean; filePaths: string[] }>;
};
export declare const shell: { openExternal(url: string): Promise<void>; showItemInFolder(fullPath: string): void; openPath(fullPath: string): Promise<string> };
export declare const screen: {
  getAllDisplays(): Array<{ workArea: ElectronRectangle }>;
  getPrimaryDisplay(): { workArea: ElectronRectangle };
};
export declare const safeStorage: {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  getSelectedStorageBackend(): string;
};

interface IpcMainEvent {
  returnValue: unknown;
  readonly senderFrame: { readonly url: string } | null;
}
export declare const ipcMain: {
  on(channel: string, listener: (event: IpcMainEvent, ...args: unknown[]) => void): unknown;
  handle(channel: string, listener: (event: IpcMainEvent, ...args: unknown[]) => unknown): void;
};

export declare const session: {
  readonly defaultSession: {
    webRequest: {
      onHeadersReceived(
        filter: { urls: string[] },
        listener: (
          details: { url: string; responseHeaders?: Record<string, string[]> },
          callback: (response: { responseHeaders?: Record<string, string | string[]> }) => void,
        ) => void,
      ): void;
    };
    setPermissionRequestHandler(
      handler: (contents: WebContents, permission: string, callback: (granted: boolean) => void, details: { requestingUrl: string }) => void,
    ): void;
    setPermissionCheckHandler(handler: (contents: WebContents | null, permission: string, requestingOrigin: string) => boolean): void;
  };
};

export declare const ipcRenderer: {
  sendSync(channel: string, ...args: unknown[]): unknown;
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
};
export declare const contextBridge: { exposeInMainWorld(apiKey: string, api: unknown): void };
