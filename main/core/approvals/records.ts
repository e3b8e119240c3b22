import { asc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { approvalEvents, approvalIssues, approvals, type ApprovalRow } from './schema.js';
import { agents } from '../agents/schema.js';
import { recordActivity } from '../activity/service.js';
import type { Approval, ApprovalDetail, ApprovalStatus } from './contract.js';
import { newId } from '../kernel/ids.js';
import type { Actor } from '../kernel/actor.js';
import { actorRef } from '../kernel/actor.js';
import { assertRecordAccess } from '../kernel/access.js';
import { badRequest, conflict, forbidden, notFound, ServiceError } from '../kernel/errors.js';
import { fieldProblems, validationError, type FieldProblem } from '../kernel/error-contract.js';
import type { Queryable } from '../context.js';

export const toApproval = (row: ApprovalRow): Approval => ({
  id: row.id,
  companyId: row.companyId,
  type: row.type,
  status: row.status,
  payload: row.payload,
  requestedByAgentId: row.requestedByAgentId,
  hireAgentId: row.hireAgentId,
  decisionNote: row.decisionNote,
  decidedAt: row.decidedAt,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/** The approval with its state history, oldest first (rowid orders the two rows a resubmit writes at one instant). */
export function approvalDetail(db: Queryable, row: ApprovalRow): ApprovalDetail {
  const history = db
    .select({
      fromStatus: approvalEvents.fromStatus,
      toStatus: approvalEvents.toStatus,
      note: approvalEvents.note,
      actorType: approvalEvents.actorType,
      actorId: approvalEvents.actorId,
      createdAt: approvalEvents.createdAt,
    })
    .from(approvalEvents)
    .where(eq(approvalEvents.approvalId, row.id))
    .orderBy(asc(approvalEvents.createdAt), sql`rowid`)
    .all();
  return { ...toApproval(row), history: history.map((h) => ({ ...h, fromStatus: h.fromStatus as ApprovalStatus | null, toStatus: h.toStatus as ApprovalStatus })) };
}

/** An approval the actor may see; a foreign one is "not found" exactly like a missing one. */
export function requireApproval(db: Queryable, actor: Actor, approvalId: string): ApprovalRow {
  const row = db.select().from(approvals).where(eq(approvals.id, approvalId)).get();
  if (!row) throw notFound('Approval');
  assertRecordAccess(actor, row.companyId, 'Approval');
  return row;
}

/** Appends one state change. `payload` keeps each submitted version of the payload in the history table. */
export function appendEvent(
  tx: Queryable,
  at: string,
  actor: Actor,
  e: { approvalId: string; from: ApprovalStatus | null; to: ApprovalStatus; note?: string | null; payload?: Record<string, unknown> | null },
): void {
  const ref = actorRef(actor);
  tx.insert(approvalEvents)
    .values({
      id: newId(),
      approvalId: e.approvalId,
      fromStatus: e.from,
      toStatus: e.to,
      note: e.note ?? null,
      payload: e.payload ?? null,
      actorType: ref.actorType,
      actorId: ref.actorId,
      createdAt: at,
    })
    .run();
}

export function invalidTransition(from: ApprovalStatus, to: ApprovalStatus): ServiceError {
  const hint = from === 'revision_requested' ? 'the requester resubmits it first' : from === 'pending' ? 'only a revision request can be resubmitted' : 'the decision is final';
  return conflict('invalid_transition', `An approval cannot move from ${from} to ${to} (${hint})`, { from, to });
}

/** What activity summaries may say about an approval: the strategy title or the hire's name, never the payload's text. */
export function approvalLabel(row: Pick<ApprovalRow, 'type' | 'payload'>): string {
  const p = row.payload;
  if (row.type === 'hire_agent') return `hire of "${String(p.name ?? '')}"`;
  // A strategy payload is free-form: only a string title is worth quoting.
  return typeof p.title === 'string' && p.title.trim() ? `strategy "${p.title}"` : 'CEO strategy';
}

/** Validates a payload for its type; problems name the field under `body.payload`. */
export function parsePayload<T>(schema: z.ZodType<T>, payload: unknown): T {
  const parsed = schema.safeParse(payload);
  if (!parsed.success) {
    throw validationError(fieldProblems('body', parsed.error.issues.map((i) => ({ ...i, path: ['payload', ...i.path] }))));
  }
  return parsed.data;
}

/**
 * Runs checks written for a request body (agent rules report `body.reportsTo` etc.) on fields that
 * arrive inside `body.payload`, and moves the field names there so the client is told where to look.
 */
export function underPayload<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    const details = e instanceof ServiceError && e.status === 400 ? (e.details as { problems?: FieldProblem[] } | undefined) : undefined;
    if (!(e instanceof ServiceError) || !details?.problems) throw e;
    const move = (path: string) => path.replace(/^body\./, 'body.payload.');
    const problems = details.problems.map((p) => ({ ...p, path: move(p.path) }));
    throw new ServiceError(400, e.code, move(e.message), { ...details, problems });
  }
}

const requesterProblem = (message: string) =>
  badRequest('invalid_requested_by', `body.requestedByAgentId: ${message}`, {
    problems: [{ location: 'body', path: 'body.requestedByAgentId', message }],
  });

/**
 * Who files the request. An agent files only as itself (its own credential proves it is alive);
 * the board may file on behalf of a living, hired agent of the company, or (hires only) for nobody.
 */
export function resolveRequester(db: Queryable, actor: Actor, companyId: string, requestedByAgentId: string | undefined): string | null {
  if (actor.kind === 'agent') {
    if (requestedByAgentId !== undefined && requestedByAgentId !== actor.agentId) {
      throw forbidden('An agent may request approvals only as itself', 'not_own_agent');
    }
    return actor.agentId;
  }
  if (requestedByAgentId === undefined) return null;
  const agent = db.select({ companyId: agents.companyId, status: agents.status }).from(agents).where(eq(agents.id, requestedByAgentId)).get();
  if (agent?.companyId !== companyId) throw requesterProblem('must be an agent of the same company');
  if (agent.status === 'terminated' || agent.status === 'draft') throw requesterProblem(`cannot be a ${agent.status} agent`);
  return requestedByAgentId;
}

export interface NewApproval {
  companyId: string;
  type: ApprovalRow['type'];
  payload: Record<string, unknown>;
  requestedByAgentId: string | null;
  hireAgentId?: string | null;
  /** Issue UUIDs, already checked to belong to the company. */
  issueIds?: readonly string[];
}

/** Inserts a pending approval with its first history row, its issue links and the activity record. */
export function insertApproval(tx: Queryable, at: string, actor: Actor, input: NewApproval): ApprovalRow {
  const row = tx
    .insert(approvals)
    .values({
      id: newId(),
      companyId: input.companyId,
      type: input.type,
      status: 'pending',
      payload: input.payload,
      requestedByAgentId: input.requestedByAgentId,
      hireAgentId: input.hireAgentId ?? null,
      createdAt: at,
      updatedAt: at,
    })
    .returning()
    .get();
  appendEvent(tx, at, actor, { approvalId: row.id, from: null, to: 'pending', payload: input.payload });
  for (const issueId of input.issueIds ?? []) tx.insert(approvalIssues).values({ approvalId: row.id, issueId, createdAt: at }).run();
  recordActivity(tx, at, actor, {
    companyId: input.companyId,
    action: 'approval.created',
    entityType: 'approval',
    entityId: row.id,
    summary: `Approval requested: ${approvalLabel(row)}`,
    details: { type: row.type, requestedByAgentId: row.requestedByAgentId, hireAgentId: row.hireAgentId, issueIds: input.issueIds ?? [] },
  });
  return row;
}
