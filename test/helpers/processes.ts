import { readFileSync } from 'node:fs';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The process state letter from /proc/<pid>/stat, or null when the process is gone. */
export function procState(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? null;
  } catch {
    return null;
  }
}

/** Alive and not a zombie: a killed process whose parent is gone waits as a zombie until init reaps it. */
export const running = (pid: number): boolean => {
  const state = procState(pid);
  return state !== null && state !== 'Z';
};

/** Waits up to `timeoutMs` for a process to be gone or a zombie; returns its last state. */
export async function waitGone(pid: number, timeoutMs = 2000): Promise<string | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = procState(pid);
    if (state === null || state === 'Z' || Date.now() > deadline) return state;
    await sleep(20);
  }
}

/** Whether the process still runs after up to a second: SIGKILL is delivered asynchronously. */
export async function alive(pid: number): Promise<boolean> {
  await waitGone(pid, 1000);
  return running(pid);
}
