import { spawn } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PACKAGE_ROOT } from '../core/kernel/package-root.js';
import { devNativeBinding, gatherLaunchFacts, launch, planLaunch, provisionElectronNative } from './launch-plan.js';
import { resolveHome } from './home.js';
import { serve } from './serve.js';

/**
 * `npm start`: the desktop window when Electron can start here; otherwise one clear line and the
 * headless core on http://127.0.0.1:3100, never a crash.
 */
const DEFAULT_PORT = 3100;
// `npm start -- --port 0` picks a free port (benchmarks, a second data home beside a running one).
const { values: flags } = parseArgs({ options: { port: { type: 'string' } }, strict: false });
const port = typeof flags.port === 'string' && /^\d+$/.test(flags.port) ? Number(flags.port) : DEFAULT_PORT;
const entry = path.join(PACKAGE_ROOT, 'dist', 'main', 'electron', 'main.js');

launch(planLaunch(gatherLaunchFacts(import.meta.url, entry, devNativeBinding(PACKAGE_ROOT))), port, {
  spawn,
  provision: () => provisionElectronNative(spawn, PACKAGE_ROOT),
  headless: () =>
    serve({ home: resolveHome(), port }).catch((err: unknown) => {
      process.stderr.write(`headcount: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    }),
  say: (line) => process.stderr.write(`${line}\n`),
  exit: (code) => process.exit(code),
  now: () => Date.now(),
  env: process.env,
});
