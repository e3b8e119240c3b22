import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Finding every process a run started, including those that left its process group (`setsid`) or
 * were re-parented to init when their parent exited. Used where no PID namespace holds the run
 * (sandbox off, macOS, Windows) and at restart, when a crashed instance left processes behind.
 */

/** The variable each agent process carries so that its descendants can be found by it. */
export const PROCESS_TAG_VAR = 'SERVICE_PROCESS_TAG';

/**
 * An identity for the process at `pid` that a reused pid cannot share: on Linux its start time in
 * clock ticks since boot (`/proc/<pid>/stat` field 22), elsewhere `ps -o lstart`. Null when the
 * process is gone or cannot be inspected.
 */
export function processStartTime(pid: number): string | null {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  if (process.platform === 'linux') {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // The command name (field 2) may contain spaces and parentheses: fields resume after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return fields[19] ? `linux:${fields[19]}` : null;
    } catch {
      return null;
    }
  }
  if (process.platform === 'win32') return null;
  try {
    const out = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return out ? `ps:${out}` : null;
  } catch {
    return null;
  }
}

interface ProcEntry {
  pid: number;
  ppid: number;
}

function listProcesses(): ProcEntry[] {
  if (process.platform === 'linux') {
    const out: ProcEntry[] = [];
    let names: string[];
    try {
      names = readdirSync('/proc');
    } catch {
      return [];
    }
    for (const name of names) {
      const pid = Number(name);
      if (!Number.isInteger(pid) || pid <= 0) continue;
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        out.push({ pid, ppid });
      } catch {
        // gone meanwhile
      }
    }
    return out;
  }
  if (process.platform === 'win32') return [];
  try {
    return execFileSync('ps', ['-axo', 'pid=,ppid='], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .split('\n')
      .map((l) => l.trim().split(/\s+/).map(Number))
      .filter((p) => p.length === 2 && p.every(Number.isInteger))
      .map(([pid, ppid]) => ({ pid: pid!, ppid: ppid! }));
  } catch {
    return [];
  }
}

/** Every live descendant of `pid` (children, their children...), found through parent links. */
export function descendantsOf(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const p of listProcesses()) {
    const list = children.get(p.ppid) ?? [];
    list.push(p.pid);
    children.set(p.ppid, list);
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length) {
    for (const child of children.get(queue.shift()!) ?? []) {
      if (found.includes(child)) continue;
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/**
 * Live processes whose environment carries `name=value` (Linux only: elsewhere another user's or
 * even one's own environment is not readable without privileges). A descendant that left the
 * group and lost its parent still inherited this variable.
 */
export function processesWithEnv(name: string, values: ReadonlySet<string>): number[] {
  if (process.platform !== 'linux' || values.size === 0) return [];
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const found: number[] = [];
  const prefix = `${name}=`;
  for (const entry of names) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
    } catch {
      continue; // gone meanwhile, or not ours to read
    }
    if (environ.split('\0').some((v) => v.startsWith(prefix) && values.has(v.slice(prefix.length)))) found.push(pid);
  }
  return found;
}

/** Sends `signal` to each pid, ignoring those already gone. */
export function signalEach(pids: Iterable<number>, signal: NodeJS.Signals): void {
  for (const pid of pids) {
    if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid) continue;
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}
