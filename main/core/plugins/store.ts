import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { PluginEntry } from './contract.js';

/** Where plugins live in the data home (DESIGN.md: `adapter-plugins.json`). */
export interface PluginPaths {
  /** `$SERVICE_HOME/adapter-plugins.json`: the registry file of spec 2.9. */
  registryFile: string;
  /** `$SERVICE_HOME/adapter-plugins/`: an npm prefix with its own package.json and node_modules. */
  installDir: string;
}

export function pluginPaths(home: string): PluginPaths {
  return { registryFile: path.join(home, 'adapter-plugins.json'), installDir: path.join(home, 'adapter-plugins') };
}

const RegistryFile = z.array(PluginEntry);

/**
 * The registry file, read and written whole. A file that does not parse is an error the caller
 * reports, never an empty list: writing over it would silently forget the founder's plugins.
 */
export class PluginStore {
  constructor(private readonly file: string) {}

  read(): PluginEntry[] {
    if (!existsSync(this.file)) return [];
    const text = readFileSync(this.file, 'utf8');
    if (text.trim() === '') return [];
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (err) {
      throw new Error(`${this.file} is not valid JSON: ${(err as Error).message}`);
    }
    const parsed = RegistryFile.safeParse(raw);
    if (!parsed.success) throw new Error(`${this.file} is not an array of {packageName, localPath, type, installedAt}: ${parsed.error.issues[0]?.message ?? ''}`);
    return parsed.data;
  }

  /** Replaces the file atomically (write a sibling, then rename), so a crash never leaves half a list. */
  write(entries: PluginEntry[]): void {
    mkdirSync(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(entries, null, 2) + '\n', { mode: 0o600 });
    renameSync(tmp, this.file);
  }
}
