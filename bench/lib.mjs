// Shared helpers of the benchmarks: run the built server as a child process, describe the machine.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The bundled CLI, as `headcount` and `npm start` run it (bin/build-cli-bundle.mjs). BENCH_CLI names
// another entry: `dist/main/cli/index.js` runs the separate modules, whose profiles name each file.
export const CLI = process.env.BENCH_CLI ?? path.join(ROOT, 'dist', 'main', 'cli', 'headcount.bundle.mjs');

export function requireBuild() {
  if (!existsSync(CLI)) {
    console.error(`${CLI} is missing: run \`npm run build\` first.`);
    process.exit(1);
  }
}

// Homes a bench made are removed when it exits, also when it fails half-way: a crashed run at scale
// left a gigabyte in the temp directory. `keepHome` exempts one the user asked to keep.
// (The servers' exit handler below removes them, once the servers are dead.)
const homes = new Set();
export function tempHome(prefix = 'headcount-bench-') {
  const home = mkdtempSync(path.join(os.tmpdir(), prefix));
  homes.add(home);
  return home;
}
export const keepHome = (home) => homes.delete(home);

/**
 * Spawns `serve --port 0` on `home` and resolves once the listening line is printed.
 * `startupMs` is measured from just before spawn() to the line. `nodeArgs` go to node (e.g. --cpu-prof);
 * `cli` is the entry to start (another build's, to compare).
 */
// Servers a bench started die with it, even when it fails half-way: left running, they held the
// bench's output pipe open and kept the machine busy for the next run.
const servers = new Set();
process.once('exit', () => {
  for (const child of servers) child.kill('SIGKILL');
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

export function startServer(home, env = {}, nodeArgs = [], cli = CLI) {
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, cli, 'serve', '--port', '0'], {
    cwd: ROOT,
    env: { ...process.env, SERVICE_HOME: home, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  servers.add(child);
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  exited.then(() => servers.delete(child));
  return new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const m = /^listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(out);
      if (m) resolve({ child, url: m[1], startupMs: performance.now() - started, exited });
    });
    exited.then(({ code, signal }) => reject(new Error(`serve exited (${code ?? signal}) before listening:\n${err}`)));
  });
}

/** SIGTERM and wait for the exit (graceful: the database is checkpointed). */
export async function stopServer(server) {
  // One answered request first, so the stop also proves the server was serving.
  const health = await fetch(`${server.url}/api/health`);
  await health.arrayBuffer();
  server.child.kill('SIGTERM');
  const { code } = await server.exited;
  if (code !== 0) throw new Error(`serve exited with ${code}`);
}

function run(cmd, args) {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

export function machine() {
  return {
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    nproc: Number(run('nproc', []) ?? os.availableParallelism()),
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    freeG: run('free', ['-g'])?.split('\n')[1]?.replace(/\s+/g, ' ') ?? null,
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    // Other work on the machine skews the figures; recorded so a reader can tell.
    loadAverage1m5m15m: os.loadavg().map((n) => Math.round(n * 100) / 100),
  };
}

const CLOCK_TICKS = Number(run('getconf', ['CLK_TCK']) ?? 100) || 100;

/**
 * CPU time (user + system, all threads) a process has used so far, in µs, from /proc (Linux); NaN
 * elsewhere. Per request it is steadier than a rate on a shared machine: time the hypervisor gives
 * to other guests slows the rate but is not charged to the process.
 */
export function processCpuMicros(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the command name: state is field 3, utime field 14 and stime field 15 (proc(5)).
    return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS) * 1e6;
  } catch {
    return Number.NaN;
  }
}

/** Resident memory of a process in MiB (Linux /proc), or null where there is none. */
export function rssMiB(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round((Number(m[1]) / 1024) * 10) / 10 : null;
  } catch {
    return null;
  }
}

export const today = () => new Date().toISOString().slice(0, 10);

export function writeResult(name, data) {
  const dir = path.join(ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${today()}-${name}.json`);
  writeFileSync(file, JSON.stringify(data, null, 2) + '\n');
  return file;
}
