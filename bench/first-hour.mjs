// The founder's first minutes, measured: the size of a fresh install's node_modules (the Electron
// binary excluded: it is downloaded separately where it can be), a cold `npm start` (nothing built:
// every build step runs) and a warm one (nothing changed since the last build), each from the
// command to the board being served (its `listening on` line) on a fresh data home.
// Usage: node bench/first-hour.mjs [--warm-runs 5] [--cold-runs 1]
import { spawn } from 'node:child_process';
import { lstatSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, machine, tempHome, writeResult } from './lib.mjs';

const { values } = parseArgs({ options: { 'warm-runs': { type: 'string', default: '5' }, 'cold-runs': { type: 'string', default: '1' } } });
const info = machine();

function sizeOf(dir, skip) {
  let total = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (skip(p)) continue;
    if (e.isDirectory()) total += sizeOf(p, skip);
    else if (e.isFile()) total += lstatSync(p).size;
  }
  return total;
}

/** `npm start` on a fresh home until the listening line; the server is stopped after. */
function timedStart() {
  const home = tempHome();
  const started = performance.now();
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const child = spawn(npm, ['start', '--silent', '--', '--port', '0'], {
    cwd: ROOT,
    env: { ...process.env, SERVICE_HOME: home, HEADCOUNT_HEADLESS: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let listened = false;
  return new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      if (!listened && /^listening on /m.test(out)) {
        listened = true;
        const ms = performance.now() - started;
        process.kill(-child.pid, 'SIGTERM');
        child.once('exit', () => {
          rmSync(home, { recursive: true, force: true });
          resolve(Math.round(ms));
        });
      }
    });
    child.once('exit', (code) => {
      if (!listened) reject(new Error(`npm start exited (${code}) before listening:\n${out}`));
    });
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const electronBinary = path.join(ROOT, 'node_modules', 'electron', 'dist');
const installBytes = sizeOf(path.join(ROOT, 'node_modules'), (p) => p === electronBinary);

const cold = [];
for (let i = 0; i < Number(values['cold-runs']); i++) {
  rmSync(path.join(ROOT, 'dist'), { recursive: true, force: true });
  rmSync(path.join(ROOT, 'adapters', 'utils', 'dist'), { recursive: true, force: true });
  cold.push(await timedStart());
}
const warm = [];
for (let i = 0; i < Number(values['warm-runs']); i++) warm.push(await timedStart());

const results = {
  installMiB: Math.round((installBytes / 2 ** 20) * 10) / 10,
  coldStartMs: { median: median(cold), samples: cold },
  warmStartMs: { median: median(warm), samples: warm },
};
const file = writeResult('first-hour', { date: new Date().toISOString(), command: 'node bench/first-hour.mjs', machine: info, results });
console.log(`${info.cpuModel}, ${info.nproc} cores, Node ${info.node}, load ${info.loadAverage1m5m15m.join(' ')}`);
console.log(`node_modules (without the Electron binary): ${results.installMiB} MiB`);
console.log(`npm start -> listening, cold (full build): median ${results.coldStartMs.median} ms ${JSON.stringify(cold)}`);
console.log(`npm start -> listening, warm (nothing changed): median ${results.warmStartMs.median} ms ${JSON.stringify(warm)}`);
console.log(`written to ${file}`);
