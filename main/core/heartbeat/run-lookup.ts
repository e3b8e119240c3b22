/**
 * What the core needs from the heartbeat engine, given to it as a port so the core runs (and is
 * tested) without one:
 * - whether a run is still active, so an issue lock held by a crashed run can be adopted;
 * - cancelling an agent's runs when a budget stops it (called after the pause has committed).
 */
export interface RunLookup {
  isActive(runId: string): boolean;
  /** The agent of a queued or running run, or null: an agent key may only name its own active runs. */
  activeRunAgent(runId: string): string | null;
  /** Cancels every active run of the agent; `reason` is recorded on the run ('budget', 'company_budget'). */
  cancelRunsOf(agentId: string, reason: string): void;
}

/**
 * Before the heartbeat engine starts there is no engine to run anything: no run is active, and
 * cancelling runs has nothing to do.
 */
export const noActiveRuns: RunLookup = { isActive: () => false, activeRunAgent: () => null, cancelRunsOf: () => {} };
