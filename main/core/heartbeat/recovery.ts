import { and, eq, inArray } from 'drizzle-orm';
import { heartbeatRuns, type HeartbeatRunRow } from './schema.js';
import { agents } from '../agents/schema.js';
import { descendantsOf, killTree, processStartTime, processesWithEnv, signalEach } from '@service/adapter-utils';
import { recordActivity } from '../activity/service.js';
import { inTransaction, type CoreContext } from '../context.js';

/**
 * The processes a crashed instance left behind for these runs: each recorded pid whose start time
 * still matches (a pid the OS gave to another program since has another start time and is never
 * touched), with its descendants, plus every process whose environment names one of the runs (a
 * descendant that called `setsid` and lost its parent still carries `SERVICE_RUN_ID`; Linux only).
 */
function leftovers(runs: HeartbeatRunRow[]): { leaders: number[]; others: number[] } {
  const leaders: number[] = [];
  const others = new Set<number>();
  for (const run of runs) {
    const recorded = run.processes ?? [];
    for (const { pid, startTime } of recorded) {
      if (!startTime || processStartTime(pid) !== startTime) continue;
      leaders.push(pid);
      for (const d of descendantsOf(pid)) others.add(d);
    }
  }
  for (const pid of processesWithEnv('SERVICE_RUN_ID', new Set(runs.map((r) => r.id)))) others.add(pid);
  for (const pid of leaders) others.delete(pid);
  return { leaders, others: [...others] };
}

/**
 * At start: runs a previous process left `running` become `lost` (their process groups are killed
 * if still alive), queued ones `cancelled`; agents left `running` go back to idle. Checkouts held by
 * those runs become adoptable, since their runs are no longer active.
 */
export function recoverRuns(ctx: CoreContext): void {
  const stale = ctx.db.select().from(heartbeatRuns).where(inArray(heartbeatRuns.status, ['queued', 'running'])).all();
  if (stale.length === 0) return;
  const at = ctx.clock.now().toISOString();
  const { leaders, others } = leftovers(stale.filter((r) => r.status === 'running'));
  signalEach(others, 'SIGKILL');
  for (const pid of leaders) killTree(pid, 'SIGKILL');
  inTransaction(ctx, (tx) => {
    for (const run of stale) {
      const lost = run.status === 'running';
      tx.update(heartbeatRuns)
        .set({ status: lost ? 'lost' : 'cancelled', finishedAt: at, errorCode: lost ? 'server_restarted' : null, cancelReason: lost ? null : 'server restarted' })
        .where(eq(heartbeatRuns.id, run.id))
        .run();
      tx.update(agents).set({ status: 'idle', updatedAt: at }).where(and(eq(agents.id, run.agentId), eq(agents.status, 'running'))).run();
      if (lost) {
        recordActivity(tx, at, 'system', {
          companyId: run.companyId,
          action: 'run.lost',
          entityType: 'heartbeat_run',
          entityId: run.id,
          summary: 'Heartbeat lost: the server stopped while it ran',
          details: { agentId: run.agentId },
        });
      }
    }
  });
  ctx.logger.warn('recovered runs left by the previous process', { count: stale.length });
}
