import path from 'node:path';

/**
 * better-sqlite3 is compiled against one ABI (DESIGN.md): node_modules keeps the Node-ABI build
 * for tests and the CLI, and the desktop app loads a second, Electron-ABI build passed to the core
 * as `nativeBinding`. `npm run electron:native` produces it in build/native/electron/; the
 * packaged app carries it as an extra resource in `<resources>/native/`.
 */
export const NATIVE_FILE = 'better_sqlite3.node';
export const DEV_NATIVE_DIR = path.join('build', 'native', 'electron');

export interface NativeLocation {
  packaged: boolean;
  /** Electron's `process.resourcesPath` (packaged app only). */
  resourcesPath: string;
  packageRoot: string;
}

export function electronNativeBinding(where: NativeLocation): string {
  return where.packaged ? path.join(where.resourcesPath, 'native', NATIVE_FILE) : path.join(where.packageRoot, DEV_NATIVE_DIR, NATIVE_FILE);
}
