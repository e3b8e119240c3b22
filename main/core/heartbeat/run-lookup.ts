/**
 * What the issue checkout needs to know about heartbeat runs: whether a run is still active, so a
 * lock held by a crashed run can be adopted. The heartbeat engine provides the real view; before
 * it starts, no run is active (there is no engine to run one).
 */
export interface RunLookup {
  isActive(runId: string): boolean;
}

export const noActiveRuns: RunLookup = { isActive: () => false };
