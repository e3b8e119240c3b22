import { killTree } from '../kill-tree.js';
import { descendantsOf, processesWithEnv, PROCESS_TAG_VAR, signalEach } from './process-tree.js';

/**
 * Signals every process of one `runChildProcess` call: the descendants of `pid` (walked before the
 * leader is signalled, while the parent links still hold), every process carrying the call's tag
 * (those that called `setsid` and were re-parented to init), then the process group of `pid`.
 *
 * Under bubblewrap `pid` is bwrap itself: a SIGTERM to it would tear the PID namespace down at once,
 * so with `spareLeader` the first, polite signal reaches only the processes inside; SIGKILL reaches
 * everything.
 */
export function killRunTree(pid: number, tag: string, signal: 'SIGTERM' | 'SIGKILL', spareLeader = false): void {
  signalEach(scanRunTree(pid, tag), signal);
  if (!spareLeader || signal === 'SIGKILL') killTree(pid, signal);
}

/** Every process of one call but its leader: the leader's descendants and every process with its tag. */
export function scanRunTree(pid: number, tag: string): Set<number> {
  const found = new Set([...descendantsOf(pid), ...processesWithEnv(PROCESS_TAG_VAR, new Set([tag]))]);
  found.delete(pid);
  return found;
}

/**
 * Kills every process of one call and keeps looking until none is left: a scan can race a fork
 * (`setsid` forks when it is already a group leader), so a process created between the scan and
 * the signal is caught by the next round. Gives up after `limitMs`; restart recovery still finds
 * anything that survived by its tag. `scan` is replaceable so a test can fork at exactly that moment.
 */
export async function sweepRunTree(pid: number, tag: string, limitMs = 2000, scan: typeof scanRunTree = scanRunTree): Promise<void> {
  const deadline = Date.now() + limitMs;
  for (let round = 0; ; round++) {
    const left = scan(pid, tag);
    killTree(pid, 'SIGKILL');
    if (left.size === 0 && round > 0) return;
    signalEach(left, 'SIGKILL');
    if (Date.now() >= deadline) return;
    await new Promise((r) => setTimeout(r, round < 3 ? 5 : 25));
  }
}
