import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

type NodePty = typeof import('node-pty');

let cached: NodePty | null | undefined;

/**
 * node-pty for a plugin installed outside the app. The plugin ships no native code (it is
 * installed from a tarball or the registry into $SERVICE_HOME/adapter-plugins, where building
 * node-pty is not possible offline), so node-pty is found at run time: next to the plugin first,
 * else from the host application that loaded it (its main script, then its working directory).
 * The build points `import('node-pty')` of the bundled adapter utilities here.
 */
export function loadNodePty(): NodePty | null {
  if (cached !== undefined) return cached;
  const bases = [import.meta.url];
  if (process.argv[1]) bases.push(pathToFileURL(path.resolve(process.argv[1])).href);
  bases.push(pathToFileURL(path.join(process.cwd(), 'index.js')).href);
  for (const base of bases) {
    try {
      cached = createRequire(base)('node-pty') as NodePty;
      return cached;
    } catch {
      // not installed there; try the next place
    }
  }
  cached = null;
  return null;
}

export const ptyAvailable = (): boolean => loadNodePty() !== null;

export function spawn(...args: Parameters<NodePty['spawn']>): ReturnType<NodePty['spawn']> {
  const pty = loadNodePty();
  if (!pty) throw new Error('node-pty is not available to the vendor_i_local plugin');
  return pty.spawn(...args);
}
