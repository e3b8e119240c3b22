import { spawn } from 'node:child_process';
import path from 'node:path';
import { PACKAGE_ROOT } from '../core/package-root.js';
import { gatherLaunchFacts, planLaunch } from './launch-plan.js';
import { resolveHome } from './home.js';
import { serve } from './serve.js';

/**
 * `npm start`: the desktop window when Electron can start here; otherwise one clear line and the
 * headless core on http://127.0.0.1:3100, never a crash.
 */
const DEFAULT_PORT = 3100;
const entry = path.join(PACKAGE_ROOT, 'dist', 'main', 'electron', 'main.js');
const plan = planLaunch(gatherLaunchFacts(import.meta.url, entry));

function headless(reason: string): void {
  process.stderr.write(`Electron cannot start here (${reason}); serving the headless board at http://127.0.0.1:${DEFAULT_PORT} instead.\n`);
  serve({ home: resolveHome(), port: DEFAULT_PORT }).catch((err: unknown) => {
    process.stderr.write(`headcount: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}

if (plan.mode === 'headless') {
  headless(plan.reason);
} else {
  const startedAt = Date.now();
  const child = spawn(plan.binary, [plan.entry], { stdio: 'inherit' });
  child.on('error', (err) => headless(`Electron failed to start: ${err.message}`));
  child.on('exit', (code, signal) => {
    // A window that dies within seconds with an error never really started (missing libraries,
    // GPU or sandbox problems): fall back rather than leave the founder with nothing.
    if (code !== 0 && Date.now() - startedAt < 5000) headless(`Electron exited at start (${signal ?? `code ${code}`})`);
    else process.exit(code ?? 0);
  });
}
