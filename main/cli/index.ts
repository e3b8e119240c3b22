#!/usr/bin/env node
import { Command, InvalidArgumentError } from 'commander';
import { VERSION } from '../core/package-root.js';
import { resolveHome } from './home.js';
import { serve } from './serve.js';
import { doctor, formatDoctor } from './doctor.js';
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
  .description('check the data home: database integrity, schema version, key provider')
  .option('--json', 'print the report as JSON')
  .action(async (opts: { json?: boolean }) => {
    const report = await doctor(resolveHome(program.opts<{ home?: string }>().home));
    process.stdout.write((opts.json ? JSON.stringify(report, null, 2) : formatDoctor(report)) + '\n');
    process.exitCode = report.ok ? 0 : 1;
  });

registerSecretsCommands(program, () => resolveHome(program.opts<{ home?: string }>().home));
registerHeartbeatCommands(program, () => resolveHome(program.opts<{ home?: string }>().home));
registerDemoCommand(program, () => resolveHome(program.opts<{ home?: string }>().home));

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`headcount: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
