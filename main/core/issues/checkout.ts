import { and, eq, isNull, or, sql } from 'drizzle-orm';
import { inJsonList, prepared } from '../db/prepared.js';
import { issues } from './schema.js';
import { agents } from '../agents/schema.js';
import type { Issue } from './contract.js';
import { toIssue } from './present.js';
import { ISSUE_JSON } from './issue-json.js';
import { jsonValue } from '../kernel/json-text.js';
import { blockedRefusal } from './blockers.js';
import { requireIssue, requireIssueLock, type IssueLock } from './lookup.js';
import type { Actor } from '../kernel/actor.js';
import { badRequest, conflict, forbidden, ServiceError } from '../kernel/errors.js';
import { recordActivity } from '../activity/service.js';
import { GROUPED, inTransaction, isoNow, type CoreContext, type Queryable, type Tx } from '../context.js';

// Checkout and release are the hottest writes of a running company: their statements are built
// once per connection (db/prepared.ts) with every value a placeholder.
const p = sql.placeholder;
// Only what the rules and the activity entry use: the whole row would decode the agent's adapter
// configuration (JSON) on every checkout.
const agentById = (db: Queryable) =>
  prepared(db, 'checkout.agentById', (d) =>
    d.select({ id: agents.id, companyId: agents.companyId, name: agents.name, status: agents.status }).from(agents).where(eq(agents.id, p('id'))).prepare(),
  );

/** The claim: one conditional UPDATE, which under any concurrency exactly one caller wins. */
const claimIssue = (db: Queryable) =>
  prepared(db, 'checkout.claim', (d) =>
    d
      .update(issues)
      .set({
        status: 'in_progress',
        assigneeAgentId: sql`${p('agentId')}`,
        checkoutAgentId: sql`${p('agentId')}`,
        checkoutRunId: sql`${p('runId')}`,
        checkedOutAt: sql`CASE WHEN ${issues.checkoutAgentId} = ${p('agentId')} THEN ${issues.checkedOutAt} ELSE ${p('at')} END`,
        startedAt: sql`coalesce(${issues.startedAt}, ${p('at')})`,
        updatedAt: sql`${p('at')}`,
        lastActivityAt: sql`${p('at')}`,
      })
      .where(
        and(
          eq(issues.id, p('issueId')),
          or(
            // Idempotent for the owner: the same run (or no run on either side) again.
            and(eq(issues.checkoutAgentId, p('agentId')), sql`coalesce(${issues.checkoutRunId}, '') = coalesce(${p('runId')}, '')`),
            and(
              inJsonList(issues.status, 'expectedStatuses'),
              or(
                isNull(issues.checkoutAgentId),
                // The owner's own lock from a run that is no longer active: adopted, and only
                // when the caller listed in_progress (a crashed run left it in that status).
                and(eq(issues.checkoutAgentId, p('agentId')), sql`${p('staleRun')} = 1`),
              ),
            ),
          ),
        ),
      )
      // The answer is the whole issue: written as JSON by SQLite (issue-json.ts), so none of its
      // columns is read into V8 and written out again (a tenth of a cycle, bench/README.md).
      .returning({ json: ISSUE_JSON })
      .prepare(),
  );

const releaseIssue = (db: Queryable) =>
  prepared(db, 'checkout.release', (d) =>
    d
      .update(issues)
      .set({ checkoutAgentId: null, checkoutRunId: null, checkedOutAt: null, status: sql`${p('status')}`, updatedAt: sql`${p('at')}`, lastActivityAt: sql`${p('at')}` })
      .where(eq(issues.id, p('issueId')))
      .returning({ status: issues.status, json: ISSUE_JSON })
      .prepare(),
  );

export type CheckoutStatus = 'backlog' | 'todo' | 'blocked' | 'in_review' | 'in_progress';

export interface CheckoutRequest {
  agentId?: string | undefined;
  expectedStatuses: CheckoutStatus[];
  /** From the X-Service-Run-Id header only (spec 4.7 rule 1). */
  runId: string | null;
}

function checkoutAgent(tx: Tx, actor: Actor, issue: IssueLock, requested: string | undefined) {
  let agentId: string;
  if (actor.kind === 'agent') {
    if (requested && requested !== actor.agentId) throw forbidden('An agent checks out issues for itself only', 'not_own_agent');
    agentId = actor.agentId;
  } else {
    if (!requested) throw badRequest('validation_error', 'body.agentId: the board must name the agent taking the issue', { problems: [{ location: 'body', path: 'body.agentId', message: 'required for the board' }] });
    agentId = requested;
  }
  const agent = agentById(tx).get({ id: agentId });
  if (!agent || agent.companyId !== issue.companyId) {
    throw badRequest('invalid_agent', 'body.agentId: must be an agent of the issue\'s company', { problems: [{ location: 'body', path: 'body.agentId', message: 'not an agent of this company' }] });
  }
  if (agent.status === 'terminated' || agent.status === 'draft') throw conflict('agent_not_active', `A ${agent.status} agent cannot take issues`);
  return agent;
}

/**
 * Checkout and release (spec 3.4, 4.7). The claim is one conditional UPDATE inside an IMMEDIATE
 * transaction, so under any concurrency exactly one caller wins and the others see why they lost.
 */
export function createCheckoutService(ctx: CoreContext) {
  return {
    checkout(actor: Actor, issueRef: string, req: CheckoutRequest): Issue {
      return inTransaction(ctx, (tx) => {
        const issue = requireIssueLock(tx, actor, issueRef);
        const agent = checkoutAgent(tx, actor, issue, req.agentId);
        // Work waiting for unfinished issues cannot start; the holder's own re-checkout still can.
        const blocked = issue.checkoutAgentId === agent.id ? null : blockedRefusal(tx, issue);
        if (blocked) throw blocked;
        const at = isoNow(ctx);
        const run = req.runId;
        // Runs of this agent still alive, known to the engine: their locks are never adopted.
        const staleRun = issue.checkoutRunId !== null && !ctx.runs.isActive(issue.checkoutRunId);
        const claimed = claimIssue(tx).get({
          agentId: agent.id,
          runId: run,
          at,
          issueId: issue.id,
          expectedStatuses: JSON.stringify(req.expectedStatuses),
          staleRun: staleRun ? 1 : 0,
        });
        if (!claimed) throw explainRefusal(tx, issue, agent.id, req);
        const adopted = issue.checkoutAgentId === agent.id && issue.checkoutRunId !== run;
        const fresh = issue.checkoutAgentId !== agent.id;
        if (fresh || adopted) {
          recordActivity(tx, at, actor, {
            companyId: issue.companyId,
            action: adopted ? 'issue.checkout_adopted' : 'issue.checked_out',
            entityType: 'issue',
            entityId: issue.id,
            summary: `${issue.identifier} ${adopted ? 'lock adopted' : 'checked out'} by ${agent.name}${run ? ` (run ${run})` : ''}`,
            details: { agentId: agent.id, runId: run, previousRunId: issue.checkoutRunId, from: issue.status },
          });
        }
        return jsonValue<Issue>(claimed.json);
      }, GROUPED);
    },

    /**
     * Gives the issue back. An `in_progress` issue returns to `todo` so another run can take it;
     * any other status is kept. The assignee stays. Releasing an issue nobody holds is a no-op.
     */
    release(actor: Actor, issueRef: string): Issue {
      return inTransaction(ctx, (tx) => {
        const issue = requireIssueLock(tx, actor, issueRef);
        // Nobody holds it: nothing to write, and the answer is the whole issue as it is.
        if (!issue.checkoutAgentId) return toIssue(requireIssue(tx, actor, issue.id));
        if (actor.kind === 'agent' && actor.agentId !== issue.checkoutAgentId) {
          throw forbidden('Only the agent holding the checkout, or the board, can release it', 'not_checkout_owner');
        }
        const at = isoNow(ctx);
        const updated = releaseIssue(tx).get({ status: issue.status === 'in_progress' ? 'todo' : issue.status, at, issueId: issue.id })!;
        recordActivity(tx, at, actor, {
          companyId: issue.companyId,
          action: 'issue.released',
          entityType: 'issue',
          entityId: issue.id,
          summary: `${issue.identifier} released${updated.status !== issue.status ? ` (back to ${updated.status})` : ''}`,
          details: { agentId: issue.checkoutAgentId, runId: issue.checkoutRunId },
        });
        return jsonValue<Issue>(updated.json);
      }, GROUPED);
    },
  };
}

/** The 409 that says who holds the issue, or why the status did not fit, and not to retry. */
function explainRefusal(tx: Tx, issue: IssueLock, agentId: string, req: CheckoutRequest): ServiceError {
  if (issue.checkoutAgentId && issue.checkoutAgentId !== agentId) {
    const owner = tx.select({ id: agents.id, name: agents.name }).from(agents).where(eq(agents.id, issue.checkoutAgentId)).get();
    return new ServiceError(409, 'checkout_conflict', `${issue.identifier} is checked out by ${owner?.name ?? 'another agent'}. Do not retry: pick other work.`, {
      ownerAgentId: issue.checkoutAgentId,
      ownerAgentName: owner?.name ?? null,
      ownerRunId: issue.checkoutRunId,
      status: issue.status,
      retry: false,
    });
  }
  if (issue.checkoutAgentId === agentId && issue.checkoutRunId && !req.expectedStatuses.includes('in_progress')) {
    return new ServiceError(409, 'checkout_conflict', `${issue.identifier} is held by an earlier run of this agent; list in_progress in expectedStatuses to adopt it once that run has ended. Do not retry as is.`, {
      ownerAgentId: agentId,
      ownerRunId: issue.checkoutRunId,
      status: issue.status,
      retry: false,
    });
  }
  if (issue.checkoutAgentId === agentId) {
    return new ServiceError(409, 'checkout_conflict', `${issue.identifier} is held by run ${issue.checkoutRunId}, which is still active. Do not retry.`, {
      ownerAgentId: agentId,
      ownerRunId: issue.checkoutRunId,
      status: issue.status,
      retry: false,
    });
  }
  return new ServiceError(409, 'unexpected_status', `${issue.identifier} is ${issue.status}, not one of ${req.expectedStatuses.join(', ')}. Do not retry.`, {
    status: issue.status,
    expectedStatuses: req.expectedStatuses,
    retry: false,
  });
}
