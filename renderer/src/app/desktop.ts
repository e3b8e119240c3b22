/**
 * The desktop window's OS actions (preload/contract.ts through `window.headcount`): each is null in
 * a plain browser tab, where the board offers the typed path field instead.
 */
export interface DesktopActions {
  /** The OS folder chooser; the chosen absolute path, or null when cancelled. */
  pickFolder: ((options: { title: string; defaultPath?: string }) => Promise<string | null>) | null;
  /** Opens a folder in the file manager. */
  openFolder: ((absolutePath: string) => Promise<boolean>) | null;
}

export function desktopActions(win: Pick<Window, 'headcount'> = window): DesktopActions {
  const bridge = win.headcount;
  return {
    pickFolder: typeof bridge?.pickFolder === 'function' ? (o) => bridge.pickFolder!(o) : null,
    openFolder: typeof bridge?.openPath === 'function' ? (p) => bridge.openPath!(p) : null,
  };
}
