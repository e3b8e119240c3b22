import { and, eq, inArray, isNull } from 'drizzle-orm';
import { keyset, type KeysetPage, type KeysetQuery } from '../../db/keyset.js';
import type { Actor } from '../../kernel/actor.js';
import { actorRef } from '../../kernel/actor.js';
import { inTransaction, isoNow, type CoreContext, type Queryable } from '../../context.js';
import { conflict, notFound } from '../../kernel/errors.js';
import { validationError } from '../../kernel/error-contract.js';
import { assertCompany } from '../../companies/service.js';
import { recordActivity } from '../../activity/service.js';
import { newId } from '../../kernel/ids.js';
import { channelAdapters } from '../channels/index.js';
import { contactFormHint, parseContact } from '../contact.js';
import { crmOutboxes, type CrmOutboxRow } from '../schema.js';
import { crmSequenceEnrollments, crmSequences, type CrmSequenceEnrollmentRow, type CrmSequenceRow, type EnrollmentStatus } from './schema.js';
import { ALWAYS_WINDOW, type CreateSequenceInput, type Enrollment, type EnrollInput, type PatchSequenceInput, type Sequence } from './contract.js';
import { stepProblems } from './steps.js';

export const LIVE_ENROLLMENT: EnrollmentStatus[] = ['active', 'waiting_approval'];

export const toSequence = (r: CrmSequenceRow): Sequence => ({
  id: r.id,
  companyId: r.companyId,
  name: r.name,
  outboxId: r.outboxId,
  steps: r.steps as unknown as Record<string, unknown>[],
  sendWindow: r.sendWindow,
  status: r.status,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
  deletedAt: r.deletedAt,
});

export const toEnrollment = (r: CrmSequenceEnrollmentRow): Enrollment => ({
  id: r.id,
  companyId: r.companyId,
  sequenceId: r.sequenceId,
  contact: r.contact,
  status: r.status,
  stepIndex: r.stepIndex,
  nextAt: r.nextAt,
  failures: r.failures,
  lastActivityId: r.lastActivityId,
  lastOutcome: r.lastOutcome,
  stopReason: r.stopReason,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

function liveOutbox(db: Queryable, companyId: string, outboxId: string): CrmOutboxRow {
  const outbox = db
    .select()
    .from(crmOutboxes)
    .where(and(eq(crmOutboxes.id, outboxId), eq(crmOutboxes.companyId, companyId), isNull(crmOutboxes.deletedAt)))
    .get();
  if (!outbox) throw validationError([{ location: 'body', path: 'body.outboxId', message: 'must be a live outbox of this company' }]);
  return outbox;
}

function requireSequence(db: Queryable, companyId: string, sequenceId: string): CrmSequenceRow {
  const row = db
    .select()
    .from(crmSequences)
    .where(and(eq(crmSequences.id, sequenceId), eq(crmSequences.companyId, companyId), isNull(crmSequences.deletedAt)))
    .get();
  if (!row) throw notFound('Sequence');
  return row;
}

/**
 * Sequences and enrollments (our addition; spec 4.8 names the scheduler, not its routes). Board and
 * the company's agents may manage them: every step still passes the dispatcher's allowlist,
 * approval rules and quota, as a send of the `system` actor with origin `sequence`.
 */
export function createSequencesService(ctx: CoreContext) {
  /** Ends the live enrollments of a sequence (deleted), in the caller's transaction. */
  function stopLive(tx: Queryable, sequenceId: string, reason: string, at: string): number {
    return tx
      .update(crmSequenceEnrollments)
      .set({ status: 'stopped', stopReason: reason, nextAt: null, updatedAt: at })
      .where(and(eq(crmSequenceEnrollments.sequenceId, sequenceId), inArray(crmSequenceEnrollments.status, LIVE_ENROLLMENT)))
      .run().changes;
  }

  return {
    /** Oldest first (created, then written; see outboxOrder), one keyset page at a time. */
    list(actor: Actor, companyId: string, page: KeysetQuery): KeysetPage<Sequence> {
      assertCompany(ctx.db, actor, companyId);
      return keyset(crmSequences, crmSequences.createdAt, 'asc').pageOf(ctx.db, and(eq(crmSequences.companyId, companyId), isNull(crmSequences.deletedAt)), page, toSequence);
    },

    get(actor: Actor, companyId: string, sequenceId: string): Sequence {
      assertCompany(ctx.db, actor, companyId);
      return toSequence(requireSequence(ctx.db, companyId, sequenceId));
    },

    create(actor: Actor, companyId: string, input: CreateSequenceInput): Sequence {
      return inTransaction(ctx, (tx) => {
        assertCompany(tx, actor, companyId);
        const outbox = liveOutbox(tx, companyId, input.outboxId);
        const problems = stepProblems(tx, companyId, outbox.channel, input.steps);
        if (problems.length) throw validationError(problems);
        const at = isoNow(ctx);
        const row = tx
          .insert(crmSequences)
          .values({ id: newId(), companyId, name: input.name, outboxId: outbox.id, steps: input.steps, sendWindow: input.sendWindow ?? ALWAYS_WINDOW, status: input.status, createdAt: at, updatedAt: at })
          .returning()
          .get();
        recordActivity(tx, at, actor, { companyId, action: 'crm.sequence.created', entityType: 'crm_sequence', entityId: row.id, summary: `Sequence "${row.name}" created with ${row.steps.length} step(s)` });
        return toSequence(row);
      });
    },

    patch(actor: Actor, companyId: string, sequenceId: string, input: PatchSequenceInput): Sequence {
      return inTransaction(ctx, (tx) => {
        assertCompany(tx, actor, companyId);
        const row = requireSequence(tx, companyId, sequenceId);
        if (input.steps) {
          const outbox = liveOutbox(tx, companyId, row.outboxId);
          const problems = stepProblems(tx, companyId, outbox.channel, input.steps);
          if (problems.length) throw validationError(problems);
        }
        const at = isoNow(ctx);
        const updated = tx
          .update(crmSequences)
          .set({
            ...(input.name !== undefined ? { name: input.name } : {}),
            ...(input.steps !== undefined ? { steps: input.steps } : {}),
            ...(input.sendWindow !== undefined ? { sendWindow: input.sendWindow } : {}),
            ...(input.status !== undefined ? { status: input.status } : {}),
            updatedAt: at,
          })
          .where(eq(crmSequences.id, row.id))
          .returning()
          .get();
        recordActivity(tx, at, actor, { companyId, action: 'crm.sequence.updated', entityType: 'crm_sequence', entityId: row.id, summary: `Sequence "${updated.name}" updated`, details: { fields: Object.keys(input) } });
        return toSequence(updated);
      });
    },

    /** Soft delete; its live enrollments stop (reason `sequence_deleted`). */
    remove(actor: Actor, companyId: string, sequenceId: string): void {
      inTransaction(ctx, (tx) => {
        assertCompany(tx, actor, companyId);
        const row = requireSequence(tx, companyId, sequenceId);
        const at = isoNow(ctx);
        tx.update(crmSequences).set({ deletedAt: at, updatedAt: at }).where(eq(crmSequences.id, row.id)).run();
        const stopped = stopLive(tx, row.id, 'sequence_deleted', at);
        recordActivity(tx, at, actor, { companyId, action: 'crm.sequence.deleted', entityType: 'crm_sequence', entityId: row.id, summary: `Sequence "${row.name}" deleted; ${stopped} enrollment(s) stopped` });
      });
    },

    /** Enrolls contacts; one already live in the sequence is skipped (reported), not enrolled twice. */
    enroll(actor: Actor, companyId: string, sequenceId: string, input: EnrollInput): { enrolled: Enrollment[]; skipped: { contact: string; reason: string }[] } {
      return inTransaction(ctx, (tx) => {
        assertCompany(tx, actor, companyId);
        const seq = requireSequence(tx, companyId, sequenceId);
        const outbox = liveOutbox(tx, companyId, seq.outboxId);
        const form = channelAdapters[outbox.channel].contact;
        const contacts: string[] = [];
        const problems = input.contacts.flatMap((raw, i) => {
          const c = parseContact(form, raw);
          if (c) contacts.push(c.value);
          return c ? [] : [{ location: 'body', path: `body.contacts.${i}`, message: `must be ${contactFormHint[form]}` }];
        });
        if (problems.length) throw validationError(problems);
        const at = isoNow(ctx);
        const start = input.startAt ? new Date(input.startAt) : ctx.clock.now();
        const firstDue = new Date(start.getTime() + seq.steps[0]!.delayMinutes * 60_000).toISOString();
        const live = new Set(
          tx
            .select({ contact: crmSequenceEnrollments.contact })
            .from(crmSequenceEnrollments)
            .where(and(eq(crmSequenceEnrollments.sequenceId, seq.id), inArray(crmSequenceEnrollments.status, LIVE_ENROLLMENT)))
            .all()
            .map((r) => r.contact),
        );
        const ref = actorRef(actor);
        const enrolled: Enrollment[] = [];
        const skipped: { contact: string; reason: string }[] = [];
        for (const contact of new Set(contacts)) {
          if (live.has(contact)) {
            skipped.push({ contact, reason: 'already_enrolled' });
            continue;
          }
          const row = tx
            .insert(crmSequenceEnrollments)
            .values({ id: newId(), companyId, sequenceId: seq.id, contact, status: 'active', stepIndex: 0, nextAt: firstDue, enrolledByType: ref.actorType, enrolledById: ref.actorId, createdAt: at, updatedAt: at })
            .returning()
            .get();
          enrolled.push(toEnrollment(row));
        }
        if (enrolled.length) {
          recordActivity(tx, at, actor, { companyId, action: 'crm.sequence.enrolled', entityType: 'crm_sequence', entityId: seq.id, summary: `${enrolled.length} contact(s) enrolled in "${seq.name}"`, details: { enrollmentIds: enrolled.map((e) => e.id) } });
        }
        return { enrolled, skipped };
      });
    },

    /**
     * Newest first, the contacts of one enroll call (one createdAt) in the order they were
     * enrolled: the order from before the list paged (created_at DESC, id ASC), since ids are
     * minted as their rows are inserted (kernel/ids.ts) and so follow the rowid.
     */
    listEnrollments(actor: Actor, companyId: string, sequenceId: string, query: { status?: EnrollmentStatus | undefined }, page: KeysetQuery): KeysetPage<Enrollment> {
      assertCompany(ctx.db, actor, companyId);
      requireSequence(ctx.db, companyId, sequenceId);
      // The sequence is this company's, so are its enrollments: naming the company lets
      // crm_enrollments_company_idx (company_id, sequence_id, created_at) walk the sequence's rows in order.
      const where = [eq(crmSequenceEnrollments.companyId, companyId), eq(crmSequenceEnrollments.sequenceId, sequenceId)];
      if (query.status) where.push(eq(crmSequenceEnrollments.status, query.status));
      return keyset(crmSequenceEnrollments, crmSequenceEnrollments.createdAt, 'desc', 'asc').pageOf(ctx.db, and(...where), page, toEnrollment);
    },

    getEnrollment(actor: Actor, companyId: string, enrollmentId: string): Enrollment {
      assertCompany(ctx.db, actor, companyId);
      const row = ctx.db
        .select()
        .from(crmSequenceEnrollments)
        .where(and(eq(crmSequenceEnrollments.id, enrollmentId), eq(crmSequenceEnrollments.companyId, companyId)))
        .get();
      if (!row) throw notFound('Enrollment');
      return toEnrollment(row);
    },

    /** Stops a live enrollment: no further step is sent (a draft already pending stays for the board). */
    stopEnrollment(actor: Actor, companyId: string, enrollmentId: string): Enrollment {
      return inTransaction(ctx, (tx) => {
        assertCompany(tx, actor, companyId);
        const row = tx
          .select()
          .from(crmSequenceEnrollments)
          .where(and(eq(crmSequenceEnrollments.id, enrollmentId), eq(crmSequenceEnrollments.companyId, companyId)))
          .get();
        if (!row) throw notFound('Enrollment');
        if (!LIVE_ENROLLMENT.includes(row.status)) throw conflict('enrollment_not_live', `The enrollment is already ${row.status}`);
        const at = isoNow(ctx);
        const updated = tx
          .update(crmSequenceEnrollments)
          .set({ status: 'stopped', stopReason: 'stopped_by_request', nextAt: null, updatedAt: at })
          .where(eq(crmSequenceEnrollments.id, row.id))
          .returning()
          .get();
        recordActivity(tx, at, actor, { companyId, action: 'crm.enrollment.stopped', entityType: 'crm_sequence_enrollment', entityId: row.id, summary: `Enrollment of ${row.contact} stopped` });
        return toEnrollment(updated);
      });
    },
  };
}

export type SequencesService = ReturnType<typeof createSequencesService>;
