import { keyset, type KeysetPage, type KeysetQuery } from '../../db/keyset.js';
import { and, eq } from 'drizzle-orm';
import { issueInteractions, type IssueInteractionRow, type IssueRow } from '../schema.js';
import {
  AskUserQuestionsPayload,
  RequestConfirmationPayload,
  SuggestTasksPayload,
  type Answers,
  type CreateInteractionInput,
  type Interaction,
} from './contract.js';
import { checkAnswers, checkTarget, checkTaskAssignees, selectTasks } from './validate.js';
import { insertChildIssues } from './child-issues.js';
import { requireIssue, touchIssue } from '../lookup.js';
import { requestWake } from '../wake.js';
import { newId } from '../../kernel/ids.js';
import type { Actor } from '../../kernel/actor.js';
import { actorRef } from '../../kernel/actor.js';
import { assertBoard } from '../../kernel/access.js';
import { badRequest, conflict, notFound } from '../../kernel/errors.js';
import { validationError } from '../../kernel/error-contract.js';
import { recordActivity } from '../../activity/service.js';
import { inTransaction, isoNow, type CoreContext, type Queryable, type Tx } from '../../context.js';
import type { ActivityKind } from '../../kernel/events.js';

const toInteraction = (row: IssueInteractionRow): Interaction => ({
  id: row.id,
  companyId: row.companyId,
  issueId: row.issueId,
  kind: row.kind,
  idempotencyKey: row.idempotencyKey,
  title: row.title,
  summary: row.summary,
  continuationPolicy: row.continuationPolicy === 'wake_assignee' ? 'wake_assignee' : null,
  payload: row.payload,
  status: row.status,
  resolution: row.resolution,
  createdByType: row.createdByType,
  createdById: row.createdById,
  resolvedByType: row.resolvedByType,
  resolvedById: row.resolvedById,
  resolvedAt: row.resolvedAt,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

type Operation = 'accept' | 'reject' | 'respond';

/** Which operations resolve which kind (our reading of spec 3.6). */
const OPERATIONS: Record<IssueInteractionRow['kind'], Operation[]> = {
  request_confirmation: ['accept', 'reject'],
  suggest_tasks: ['accept', 'reject'],
  ask_user_questions: ['respond'],
};

function requireInteraction(db: Queryable, issue: IssueRow, interactionId: string): IssueInteractionRow {
  const row = db.select().from(issueInteractions).where(and(eq(issueInteractions.id, interactionId), eq(issueInteractions.issueId, issue.id))).get();
  if (!row) throw notFound('Interaction');
  return row;
}

/**
 * Interactions: pending → accepted | rejected (request_confirmation, suggest_tasks),
 * pending → answered (ask_user_questions), pending → superseded (see supersede.ts).
 * Agents and the board create them; only the board resolves them (spec 5.5).
 */
export function createIssueInteractionsService(ctx: CoreContext) {
  /** Loads a pending interaction the board may resolve with `op`, in the order errors are reported. */
  function open(tx: Tx, actor: Actor, issueRef: string, interactionId: string, op: Operation) {
    assertBoard(actor, 'resolve interactions');
    const issue = requireIssue(tx, actor, issueRef);
    const row = requireInteraction(tx, issue, interactionId);
    if (!OPERATIONS[row.kind].includes(op)) {
      throw badRequest('operation_not_supported', `A ${row.kind} interaction cannot be resolved with ${op}; use ${OPERATIONS[row.kind].join(' or ')}`, {
        kind: row.kind,
        supported: OPERATIONS[row.kind],
      });
    }
    if (row.status !== 'pending') {
      throw conflict('interaction_not_pending', `The interaction is already ${row.status}`, { status: row.status });
    }
    return { issue, row };
  }

  const RESOLVED = { accepted: 'issue.interaction_accepted', rejected: 'issue.interaction_rejected', answered: 'issue.interaction_answered' } as const satisfies Record<string, ActivityKind>;

  function resolve(tx: Tx, actor: Actor, issue: IssueRow, row: IssueInteractionRow, status: 'accepted' | 'rejected' | 'answered', resolution: Record<string, unknown>): Interaction {
    const at = isoNow(ctx);
    // wake_assignee continues the agent's work after a positive answer; a rejection is followed up by a comment instead.
    if (status !== 'rejected' && row.continuationPolicy === 'wake_assignee' && issue.assigneeAgentId) {
      resolution.wakeRequestId = requestWake(tx, at, { companyId: issue.companyId, agentId: issue.assigneeAgentId, reason: 'interaction_accepted', issueId: issue.id, interactionId: row.id });
    }
    const ref = actorRef(actor);
    const updated = tx
      .update(issueInteractions)
      .set({ status, resolution, resolvedByType: ref.actorType, resolvedById: ref.actorId, resolvedAt: at, updatedAt: at })
      .where(eq(issueInteractions.id, row.id))
      .returning()
      .get();
    touchIssue(tx, issue.id, at);
    const { reason: _reason, answers: _answers, ...facts } = resolution;
    recordActivity(tx, at, actor, {
      companyId: issue.companyId,
      action: RESOLVED[status],
      entityType: 'issue',
      entityId: issue.id,
      summary: `Interaction "${row.title}" ${status} on ${issue.identifier}`,
      details: { interactionId: row.id, kind: row.kind, ...facts },
    });
    return toInteraction(updated);
  }

  return {
    /** Oldest first. */
    list(actor: Actor, issueRef: string, page: KeysetQuery): KeysetPage<Interaction> {
      const issue = requireIssue(ctx.db, actor, issueRef);
      return keyset(issueInteractions, issueInteractions.createdAt, 'asc').pageOf(ctx.db, eq(issueInteractions.issueId, issue.id), page, toInteraction);
    },

    /**
     * Idempotent by (issue, idempotencyKey): a repeat returns the first interaction unchanged and
     * writes nothing, even when its body differs, so a retry after a lost response is always safe.
     * The key is looked up before the target is checked: a retry still succeeds after the document moved on.
     */
    create(actor: Actor, issueRef: string, input: CreateInteractionInput): { interaction: Interaction; created: boolean } {
      return inTransaction(ctx, (tx) => {
        const issue = requireIssue(tx, actor, issueRef);
        const existing = tx
          .select()
          .from(issueInteractions)
          .where(and(eq(issueInteractions.issueId, issue.id), eq(issueInteractions.idempotencyKey, input.idempotencyKey)))
          .get();
        if (existing) return { interaction: toInteraction(existing), created: false };
        let payload: Record<string, unknown> = input.payload;
        if (input.kind === 'request_confirmation' && input.payload.target) {
          payload = { ...input.payload, target: checkTarget(tx, issue, input.payload.target) };
        }
        if (input.kind === 'suggest_tasks') checkTaskAssignees(tx, issue.companyId, input.payload.tasks, 'create');
        const at = isoNow(ctx);
        const ref = actorRef(actor);
        const row = tx
          .insert(issueInteractions)
          .values({
            id: newId(),
            companyId: issue.companyId,
            issueId: issue.id,
            kind: input.kind,
            idempotencyKey: input.idempotencyKey,
            title: input.title,
            summary: input.summary ?? '',
            continuationPolicy: input.continuationPolicy ?? null,
            payload,
            status: 'pending',
            createdByType: ref.actorType,
            createdById: ref.actorId,
            createdAt: at,
            updatedAt: at,
          })
          .returning()
          .get();
        touchIssue(tx, issue.id, at);
        recordActivity(tx, at, actor, {
          companyId: issue.companyId,
          action: 'issue.interaction_created',
          entityType: 'issue',
          entityId: issue.id,
          summary: `Interaction "${row.title}" (${row.kind}) posted on ${issue.identifier}`,
          details: { interactionId: row.id, kind: row.kind },
        });
        return { interaction: toInteraction(row), created: true };
      });
    },

    accept(actor: Actor, issueRef: string, interactionId: string, body: { selectedClientKeys?: string[] | undefined } | null | undefined): Interaction {
      return inTransaction(ctx, (tx) => {
        const { issue, row } = open(tx, actor, issueRef, interactionId, 'accept');
        const selected = body?.selectedClientKeys;
        if (row.kind === 'request_confirmation') {
          if (selected !== undefined) {
            throw validationError([{ location: 'body', path: 'body.selectedClientKeys', message: 'only for suggest_tasks interactions' }]);
          }
          return resolve(tx, actor, issue, row, 'accepted', {});
        }
        const payload = SuggestTasksPayload.parse(row.payload);
        const tasks = selectTasks(payload.tasks, selected);
        const assignees = checkTaskAssignees(tx, issue.companyId, tasks, 'accept');
        const createdIssueIds = insertChildIssues(tx, isoNow(ctx), actor, issue, tasks, assignees, row.id);
        return resolve(tx, actor, issue, row, 'accepted', { selectedClientKeys: tasks.map((t) => t.clientKey), createdIssueIds });
      });
    },

    reject(actor: Actor, issueRef: string, interactionId: string, body: { reason?: string | null | undefined } | null | undefined): Interaction {
      return inTransaction(ctx, (tx) => {
        const { issue, row } = open(tx, actor, issueRef, interactionId, 'reject');
        const reason = body?.reason?.trim() || null;
        if (row.kind === 'request_confirmation' && !reason && RequestConfirmationPayload.parse(row.payload).rejectRequiresReason) {
          throw badRequest('reason_required', 'body.reason: this confirmation needs a reason to reject it', {
            problems: [{ location: 'body', path: 'body.reason', message: 'required for this confirmation' }],
          });
        }
        return resolve(tx, actor, issue, row, 'rejected', { reason });
      });
    },

    respond(actor: Actor, issueRef: string, interactionId: string, answers: Answers): Interaction {
      return inTransaction(ctx, (tx) => {
        const { issue, row } = open(tx, actor, issueRef, interactionId, 'respond');
        const checked = checkAnswers(AskUserQuestionsPayload.parse(row.payload), answers);
        return resolve(tx, actor, issue, row, 'answered', { answers: checked });
      });
    },
  };
}

export type IssueInteractionsService = ReturnType<typeof createIssueInteractionsService>;
