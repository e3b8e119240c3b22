import path from 'node:path';
import type { Command } from 'commander';
import { createClient, resolveConnection } from './client.js';
import type { AdapterListEntry, InstalledAdapter } from '../core/plugins/contract.js';

interface ConnectionFlags {
  url?: string;
  token?: string;
}

/** One line per adapter: type, where it comes from, and why it cannot be used when it cannot. */
export function formatAdapterList(items: AdapterListEntry[]): string {
  if (items.length === 0) return 'no adapters';
  const width = Math.max(...items.map((a) => a.type.length));
  return items
    .map((a) => {
      const origin = a.source === 'builtin' ? 'built-in' : `plugin ${a.localPath ?? a.packageName ?? ''}`.trim();
      const flags = [a.experimental ? 'experimental' : null, a.status === 'error' ? `ERROR: ${a.error ?? 'failed to load'}` : null].filter(Boolean);
      return `${a.type.padEnd(width)}  ${a.label} (${origin})${flags.length ? `  [${flags.join('; ')}]` : ''}`;
    })
    .join('\n');
}

/**
 * A directory or an existing `.tgz` is installed by path; anything else is an npm spec. A relative
 * directory is made absolute here because the server (spec 4.3) only takes absolute local paths.
 */
export function installBody(spec: string, cwd: string, isDirectory: (p: string) => boolean): { localPath: string } | { packageName: string } {
  const candidate = path.resolve(cwd, spec);
  if ((spec.startsWith('.') || path.isAbsolute(spec)) && isDirectory(candidate)) return { localPath: candidate };
  if (/\.(tgz|tar\.gz)$/i.test(spec)) return { packageName: candidate };
  return { packageName: spec };
}

const connectionOptions = (cmd: Command): Command =>
  cmd
    .option('--url <url>', 'URL of the running Headcount server', 'http://127.0.0.1:3100')
    .option('--token <token>', 'board token (default $SERVICE_BOARD_TOKEN or <home>/board-token)');

/** `headcount adapters list|install|remove` against a running server (DESIGN.md: CLI). */
export function registerAdapterCommands(program: Command, home: () => string, isDirectory: (p: string) => boolean): void {
  const client = (opts: ConnectionFlags) => createClient(resolveConnection(opts, home()));
  const adapters = program.command('adapters').description('adapter types and plugins of a running server');

  connectionOptions(adapters.command('list').description('built-in adapters and installed plugins, with load errors').option('--json', 'print JSON')).action(
    async (opts: ConnectionFlags & { json?: boolean }) => {
      const items = await client(opts).request<AdapterListEntry[]>('GET', '/api/adapters');
      process.stdout.write((opts.json ? JSON.stringify(items, null, 2) : formatAdapterList(items)) + '\n');
    },
  );

  connectionOptions(
    adapters
      .command('install <spec>')
      .description('install a plugin from a local directory (linked), a packed .tgz or an npm package name'),
  ).action(async (spec: string, opts: ConnectionFlags) => {
    const installed = await client(opts).request<InstalledAdapter>('POST', '/api/adapters', installBody(spec, process.cwd(), isDirectory));
    process.stdout.write(`installed ${installed.type} (${installed.label}) from ${installed.localPath ?? installed.packageName}\n`);
  });

  connectionOptions(adapters.command('remove <type>').description('uninstall a plugin adapter')).action(async (type: string, opts: ConnectionFlags) => {
    await client(opts).request('DELETE', `/api/adapters/${encodeURIComponent(type)}`);
    process.stdout.write(`removed ${type}\n`);
  });
}
