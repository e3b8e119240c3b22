import { readdirSync, readFileSync } from 'node:fs';
import { and, eq, inArray } from 'drizzle-orm';
import { heartbeatRuns } from './schema.js';
import { agents } from '../agents/schema.js';
import { killTree } from '@service/adapter-utils';
import { recordActivity } from '../activity/service.js';
import { inTransaction, type CoreContext } from '../context.js';

/**
 * Is `pid` still the process of this run? After a restart the pid may belong to something else;
 * on Linux the run id in its environment proves it. Elsewhere we cannot check and do not kill.
 */
function stillOurs(pid: number, runId: string): boolean {
  if (process.platform !== 'linux') return false;
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`SERVICE_RUN_ID=${runId}`);
  } catch {
    return false;
  }
}

/**
 * Live processes whose environment names one of these runs (Linux only). A run's agent process may
 * have died with the server (a write to the closed pipe) while its descendants live on: they are
 * no longer reachable through the recorded pid, but they still carry `SERVICE_RUN_ID`.
 */
function processesOfRuns(runIds: ReadonlySet<string>): number[] {
  if (process.platform !== 'linux' || runIds.size === 0) return [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const name of entries) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
    } catch {
      continue; // gone meanwhile, or not ours to read
    }
    if (environ.split('\0').some((v) => v.startsWith('SERVICE_RUN_ID=') && runIds.has(v.slice('SERVICE_RUN_ID='.length)))) found.push(pid);
  }
  return found;
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
  for (const run of stale) if (run.status === 'running' && run.pid && stillOurs(run.pid, run.id)) killTree(run.pid, 'SIGKILL');
  // Orphans whose group leader is already gone: swept by the run id in their environment.
  for (const pid of processesOfRuns(new Set(stale.filter((r) => r.status === 'running').map((r) => r.id)))) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
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
