import { eq } from 'drizzle-orm';
import { heartbeatRuns } from './schema.js';
import { agents } from '../agents/schema.js';
import type { RunTokens, RunTokenClaims } from './run-token.js';
import type { CoreContext } from '../context.js';

/**
 * A run token is honoured while its run is queued or running, and for `graceSec` after it ended
 * (a CLI's last calls race with its exit). A terminated agent's tokens stop at once.
 */
export async function verifyRunToken(ctx: CoreContext, tokens: RunTokens, token: string, graceSec: number): Promise<RunTokenClaims | null> {
  const claims = await tokens.verify(token);
  if (!claims) return null;
  const run = ctx.db
    .select({ status: heartbeatRuns.status, finishedAt: heartbeatRuns.finishedAt, agentId: heartbeatRuns.agentId, companyId: heartbeatRuns.companyId })
    .from(heartbeatRuns)
    .where(eq(heartbeatRuns.id, claims.runId))
    .get();
  if (!run || run.agentId !== claims.agentId || run.companyId !== claims.companyId) return null;
  const agent = ctx.db.select({ status: agents.status }).from(agents).where(eq(agents.id, claims.agentId)).get();
  if (!agent || agent.status === 'terminated') return null;
  if (run.status === 'queued' || run.status === 'running') return claims;
  const ended = run.finishedAt ? Date.parse(run.finishedAt) : 0;
  return ctx.clock.now().getTime() - ended <= graceSec * 1000 ? claims : null;
}
