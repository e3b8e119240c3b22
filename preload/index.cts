/**
 * The preload of the Headcount window. It runs sandboxed (only `electron` can be required, and it
 * must be CommonJS, hence .cts) with context isolation: the page sees one frozen object and nothing
 * of Node or of ipcRenderer.
 */
import electron = require('electron');
import type { BootstrapReply, HeadcountDesktopBridge, NotificationState, PickFolderOptions, BRIDGE_CHANNELS } from './contract.js';

type Channels = typeof BRIDGE_CHANNELS;
const channels: Channels = {
  bootstrap: 'headcount:bootstrap',
  revealPath: 'headcount:reveal-path',
  notificationState: 'headcount:notification-state',
  pickFolder: 'headcount:pick-folder',
  openPath: 'headcount:open-path',
};

// Synchronous and once: the token must be there before the page's first request.
const boot = electron.ipcRenderer.sendSync(channels.bootstrap) as BootstrapReply | null;

if (boot) {
  const bridge: HeadcountDesktopBridge = {
    apiBaseUrl: boot.apiBaseUrl,
    token: boot.token,
    appVersion: boot.appVersion,
    platform: boot.platform,
    revealPath: (absolutePath: string) => electron.ipcRenderer.invoke(channels.revealPath, String(absolutePath)) as Promise<boolean>,
    notificationState: () => electron.ipcRenderer.invoke(channels.notificationState) as Promise<NotificationState>,
    // Only plain strings cross: the page cannot hand the main process an object with getters.
    pickFolder: (options?: PickFolderOptions) =>
      electron.ipcRenderer.invoke(channels.pickFolder, { title: String(options?.title ?? ''), defaultPath: String(options?.defaultPath ?? '') }) as Promise<string | null>,
    openPath: (absolutePath: string) => electron.ipcRenderer.invoke(channels.openPath, String(absolutePath)) as Promise<boolean>,
  };
  electron.contextBridge.exposeInMainWorld('headcount', Object.freeze(bridge));
}
