#!/usr/bin/env node
import { existsSync, statSync } from 'node:fs';
import { Command, InvalidArgumentError } from 'commander';
import { registerAdapterCommands } from './adapters.js';
import { VERSION } from '../core/kernel/package-root.js';
import { resolveHome } from './home.js';
import { serve } from './serve.js';
import { doctor, formatBackups, formatDoctor, formatRestore, restoreBackupInHome } from './doctor.js';
import { listBackups } from '../core/retention/backups.js';
import { homePaths } from '../core/context.js';
import { registerExportCommands } from './export.js';
import { registerSecretsCommands } from './secrets.js';
import { registerHeartbeatCommands } from './heartbeat.js';
import { registerDemoCommand } from './demo.js';

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError('must be a port number (0-65535)');
  return port;
}

const program = new Command()
  .name('headcount')
  .description('Run a company of AI agents on this computer')
  .version(VERSION)
  .option('--home <dir>', 'data home (default $SERVICE_HOME or ~/.service)');

program
  .command('serve')
  .description('run the headless core on 127.0.0.1')
  .option('-p, --port <port>', 'TCP port', parsePort, 3100)
  .action(async (opts: { port: number }) => {
    await serve({ home: resolveHome(program.opts<{ home?: string }>().home), port: opts.port });
  });

program
  .command('doctor')
  .description('check the data home: database integrity, schema version, key provider, disk use, backups')
  .option('--json', 'print the report as JSON')
  .option('--list-backups', 'list the database backups, newest first')
  .option('--restore-backup [file]', 'put a backup back as the database (the newest, or the one named); the server must be stopped')
  .action(async (opts: { json?: boolean; listBackups?: boolean; restoreBackup?: string | true }) => {
    const home = resolveHome(program.opts<{ home?: string }>().home);
    if (opts.restoreBackup !== undefined) {
      const r = restoreBackupInHome(home, opts.restoreBackup === true ? undefined : opts.restoreBackup);
      process.stdout.write((opts.json ? JSON.stringify(r, null, 2) : formatRestore(r)) + '\n');
      return;
    }
    if (opts.listBackups) {
      const list = listBackups(homePaths(home).backups);
      process.stdout.write((opts.json ? JSON.stringify(list, null, 2) : formatBackups(list)) + '\n');
      return;
    }
    const report = await doctor(home);
    process.stdout.write((opts.json ? JSON.stringify(report, null, 2) : formatDoctor(report)) + '\n');
    process.exitCode = report.ok ? 0 : 1;
  });

registerSecretsCommands(program, () => resolveHome(program.opts<{ home?: string }>().home));
registerHeartbeatCommands(program, () => resolveHome(program.opts<{ home?: string }>().home));
registerDemoCommand(program, () => resolveHome(program.opts<{ home?: string }>().home));
registerExportCommands(program, () => resolveHome(program.opts<{ home?: string }>().home));
registerAdapterCommands(program, () => resolveHome(program.opts<{ home?: string }>().home), (p) => existsSync(p) && statSync(p).isDirectory());

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`headcount: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
