import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/**
 * Signals a whole process tree. Children are started as leaders of their own process group
 * (`detached` for pipes; node-pty starts a new session), so signalling the negative pid reaches the
 * child and every descendant that stayed in its group. On Windows there are no groups: taskkill /T
 * walks the tree instead, and it only knows "kill", so SIGTERM and SIGKILL act alike there.
 */
export function killTree(pid: number, signal: 'SIGTERM' | 'SIGKILL'): void {
  // Never let a bad pid turn into kill(-1) / kill(0): those reach far more than one tree.
  if (!Number.isInteger(pid) || pid <= 1) return;
  if (process.platform === 'win32') {
    spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).on('error', () => {});
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch (err) {
    // ESRCH: the group is already gone, which is what we wanted.
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

/** Whether any process of the group is still alive (signal 0 only checks). */
export function groupAlive(pid: number): boolean {
  if (process.platform === 'win32') return false;
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

export const signalName = (signal: number | string | null | undefined): string | null => {
  if (signal === null || signal === undefined || signal === 0) return null;
  if (typeof signal === 'string') return signal;
  return (Object.entries(constants.signals).find(([, n]) => n === signal)?.[0] as string | undefined) ?? `SIG${signal}`;
};
