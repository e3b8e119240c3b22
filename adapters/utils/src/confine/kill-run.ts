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
  const inside = new Set([...descendantsOf(pid), ...processesWithEnv(PROCESS_TAG_VAR, new Set([tag]))]);
  inside.delete(pid);
  signalEach(inside, signal);
  if (!spareLeader || signal === 'SIGKILL') killTree(pid, signal);
}
