import { existsSync, lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { homePaths } from '../context.js';
import { pluginPaths } from '../plugins/store.js';

export interface DiskUsage {
  home: string;
  /** Bytes: the database with its WAL, transcripts, attachments, backups, installed plugins. */
  database: number;
  runs: number;
  attachments: number;
  backups: number;
  plugins: number;
  total: number;
}

/** Size of a file or of everything under a folder (symbolic links counted as links, not followed). */
export function bytesUnder(target: string): number {
  if (!existsSync(target)) return 0;
  const st = lstatSync(target);
  if (!st.isDirectory()) return st.size;
  let n = 0;
  for (const name of readdirSync(target)) n += bytesUnder(path.join(target, name));
  return n;
}

export function diskUsage(home: string): DiskUsage {
  const p = homePaths(home);
  const plugins = pluginPaths(home);
  const usage = {
    home,
    database: bytesUnder(p.database) + bytesUnder(`${p.database}-wal`) + bytesUnder(`${p.database}-shm`),
    runs: bytesUnder(p.runs),
    attachments: bytesUnder(p.attachments),
    backups: bytesUnder(p.backups),
    plugins: bytesUnder(plugins.installDir) + bytesUnder(plugins.registryFile),
  };
  return { ...usage, total: usage.database + usage.runs + usage.attachments + usage.backups + usage.plugins };
}
