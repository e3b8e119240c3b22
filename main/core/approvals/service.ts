import { keyset, type KeysetPage, type KeysetQuery } from '../db/keyset.js';
import { and, eq, inArray, ne, type SQL } from 'drizzle-orm';
import { approvalIssues, approvals, type ApprovalRow } from './schema.js';
import { agents } from '../agents/schema.js';
import { issues } from '../issues/schema.js';
import {
  HireAgentPayload,
  StrategyPayload,
  type Approval,
  type ApprovalDetail,
  type ApprovalStatus,
  type CreateApprovalInput,
} from './contract.js';
import { appendEvent, approvalDetail, approvalLabel, insertApproval, invalidTransition, parsePayload, requireApproval, resolveRequester, toApproval, underPayload } from './records.js';
import { activateDraft, createHiresService, retireDraft, updateDraft } from './hire.js';
import { createApprovalCommentsService } from './comments.js';
import { requestWake } from '../issues/wake.js';
import { isUuid } from '../issues/lookup.js';
import type { Actor } from '../kernel/actor.js';
import { assertBoard } from '../kernel/access.js';
import { badRequest, forbidden } from '../kernel/errors.js';
import { recordActivity } from '../activity/service.js';
import { assertCompany } from '../companies/service.js';
import { inTransaction, isoNow, type CoreContext, type Queryable, type Tx } from '../context.js';
import type { ActivityKind } from '../kernel/events.js';

type Decision = 'approved' | 'rejected' | 'revision_requested';
const DECIDED = { approved: 'approval.approved', rejected: 'approval.rejected', revision_requested: 'approval.revision_requested' } as const satisfies Record<Decision, ActivityKind>;

const issueProblem = (index: number, message: string) =>
  badRequest('invalid_issue', `body.issueIds.${index}: ${message}`, {
    problems: [{ location: 'body', path: `body.issueIds.${index}`, message }],
  });

/** Issue references (UUID or identifier) of the company, as UUIDs without repeats. */
function resolveIssueIds(db: Queryable, companyId: string, refs: readonly string[]): string[] {
  const out: string[] = [];
  refs.forEach((ref, i) => {
    const key = ref.trim();
    const where = isUuid(key) ? eq(issues.id, key.toLowerCase()) : eq(issues.identifier, key.toUpperCase());
    const row = db.select({ id: issues.id }).from(issues).where(and(where, eq(issues.companyId, companyId))).get();
    if (!row) throw issueProblem(i, 'must be an issue of the same company');
    if (!out.includes(row.id)) out.push(row.id);
  });
  return out;
}

/**
 * Approvals (spec 3.3): pending → approved | rejected | revision_requested, and
 * revision_requested → resubmitted → pending on resubmit. Everything else is 409 invalid_transition.
 * Agents file and resubmit requests and read them; only the board decides.
 */
export function createApprovalsService(ctx: CoreContext) {
  const thread = createApprovalCommentsService(ctx);

  /** The requester hears about every decision, whatever it is, unless it was terminated meanwhile. */
  function wakeRequester(tx: Tx, at: string, row: ApprovalRow): void {
    if (!row.requestedByAgentId) return;
    const living = tx
      .select({ id: agents.id })
      .from(agents)
      .where(and(eq(agents.id, row.requestedByAgentId), ne(agents.status, 'terminated')))
      .get();
    if (living) requestWake(tx, at, { companyId: row.companyId, agentId: living.id, reason: 'approval_decision', approvalId: row.id });
  }

  function decide(actor: Actor, approvalId: string, to: Decision, note: string | null | undefined): ApprovalDetail {
    assertBoard(actor, 'decide approvals');
    return inTransaction(ctx, (tx) => {
      const row = requireApproval(tx, actor, approvalId);
      if (row.status !== 'pending') throw invalidTransition(row.status, to);
      const at = isoNow(ctx);
      const decisionNote = note?.trim() ? note : null;
      if (row.type === 'hire_agent' && to === 'approved') activateDraft(tx, at, actor, row);
      if (row.type === 'hire_agent' && to === 'rejected') retireDraft(tx, at, actor, row);
      const updated = tx
        .update(approvals)
        .set({ status: to, decisionNote, decidedByType: 'board', decidedAt: at, updatedAt: at })
        .where(eq(approvals.id, row.id))
        .returning()
        .get();
      appendEvent(tx, at, actor, { approvalId: row.id, from: 'pending', to, note: decisionNote });
      wakeRequester(tx, at, row);
      recordActivity(tx, at, actor, {
        companyId: row.companyId,
        action: DECIDED[to],
        entityType: 'approval',
        entityId: row.id,
        summary: `Approval ${to.replace('_', ' ')}: ${approvalLabel(row)}`,
        details: { type: row.type, from: 'pending', to, hireAgentId: row.hireAgentId },
      });
      return approvalDetail(tx, updated);
    });
  }

  return {
    /** Newest first. */
    list(actor: Actor, companyId: string, statuses: ApprovalStatus[] | undefined, page: KeysetQuery, issueId?: string): KeysetPage<Approval> {
      assertCompany(ctx.db, actor, companyId);
      const filters: (SQL | undefined)[] = [eq(approvals.companyId, companyId)];
      if (statuses?.length) filters.push(inArray(approvals.status, statuses));
      if (issueId) filters.push(inArray(approvals.id, ctx.db.select({ id: approvalIssues.approvalId }).from(approvalIssues).where(eq(approvalIssues.issueId, issueId.toLowerCase()))));
      return keyset(approvals, approvals.createdAt, 'desc').pageOf(ctx.db, and(...filters), page, toApproval);
    },

    get: (actor: Actor, approvalId: string): ApprovalDetail => approvalDetail(ctx.db, requireApproval(ctx.db, actor, approvalId)),

    create(actor: Actor, companyId: string, input: CreateApprovalInput): ApprovalDetail {
      return inTransaction(ctx, (tx) => {
        assertCompany(tx, actor, companyId);
        if (input.type === 'hire_agent') {
          throw badRequest('use_agent_hires', 'body.type: hire_agent approvals come with their draft agent; use POST /api/companies/{companyId}/agent-hires', {
            problems: [{ location: 'body', path: 'body.type', message: 'use POST /api/companies/{companyId}/agent-hires' }],
          });
        }
        const requestedByAgentId = resolveRequester(tx, actor, companyId, input.requestedByAgentId);
        const payload = parsePayload(StrategyPayload, input.payload);
        const issueIds = resolveIssueIds(tx, companyId, input.issueIds ?? []);
        const row = insertApproval(tx, isoNow(ctx), actor, { companyId, type: input.type, payload, requestedByAgentId, issueIds });
        return approvalDetail(tx, row);
      });
    },

    approve: (actor: Actor, approvalId: string, note?: string | null) => decide(actor, approvalId, 'approved', note),
    reject: (actor: Actor, approvalId: string, note?: string | null) => decide(actor, approvalId, 'rejected', note),
    requestRevision: (actor: Actor, approvalId: string, note?: string | null) => decide(actor, approvalId, 'revision_requested', note),

    /**
     * The requester (or the board) answers a revision request with a whole new payload. Recorded as
     * two history rows, revision_requested → resubmitted → pending, so the board sees it came back.
     */
    resubmit(actor: Actor, approvalId: string, payload: Record<string, unknown>): ApprovalDetail {
      return inTransaction(ctx, (tx) => {
        const row = requireApproval(tx, actor, approvalId);
        if (actor.kind === 'agent' && actor.agentId !== row.requestedByAgentId) {
          throw forbidden('Only the agent that requested this approval, or the board, may resubmit it', 'not_requester');
        }
        if (row.status !== 'revision_requested') throw invalidTransition(row.status, 'resubmitted');
        const at = isoNow(ctx);
        let stored: Record<string, unknown>;
        if (row.type === 'hire_agent') {
          const hire = parsePayload(HireAgentPayload, payload);
          stored = underPayload(() => updateDraft(ctx, tx, at, actor, row, hire));
        } else {
          stored = parsePayload(StrategyPayload, payload);
        }
        // The decision fields describe the current decision; the revision request's note stays in the history.
        const updated = tx
          .update(approvals)
          .set({ status: 'pending', payload: stored, decisionNote: null, decidedByType: null, decidedAt: null, updatedAt: at })
          .where(eq(approvals.id, row.id))
          .returning()
          .get();
        appendEvent(tx, at, actor, { approvalId: row.id, from: 'revision_requested', to: 'resubmitted', payload: stored });
        appendEvent(tx, at, actor, { approvalId: row.id, from: 'resubmitted', to: 'pending' });
        recordActivity(tx, at, actor, {
          companyId: row.companyId,
          action: 'approval.resubmitted',
          entityType: 'approval',
          entityId: row.id,
          summary: `Approval resubmitted: ${approvalLabel(updated)}`,
          details: { type: row.type, from: 'revision_requested', to: 'pending' },
        });
        return approvalDetail(tx, updated);
      });
    },

    hires: createHiresService(ctx),
    comments: { list: thread.list, create: thread.create },
    linkedIssues: thread.issues,
  };
}

export type ApprovalsService = ReturnType<typeof createApprovalsService>;
