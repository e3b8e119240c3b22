import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Actor } from '../kernel/actor.js';
import { inTransaction, isoNow, type CoreContext, type Tx } from '../context.js';
import { badRequest, conflict, forbidden, notFound, ServiceError } from '../kernel/errors.js';
import { validationError } from '../kernel/error-contract.js';
import { assertCompanyAccess } from '../kernel/access.js';
import { assertCompany } from '../companies/service.js';
import { channelAdapters } from './channels/index.js';
import { ChannelError, type ChannelResult } from './channels/types.js';
import { contactFormHint, parseContact } from './contact.js';
import { computeDedupKey } from './dedup-key.js';
import { allowlistEntryFor } from './allowlist-match.js';
import { firstMatchingRule } from './rule-matcher.js';
import { refundQuota, reserveQuota, utcDay } from './quota.js';
import { readForceDryRun } from './settings.js';
import { actorPartOf, findByDedupKey, loadActivity, updateActivity, writeOutcome, type PreparedSend } from './activity-records.js';
import { crmActivities, crmApprovalRules, crmContentPieces, crmOutboxes, type CrmActivityRow } from './schema.js';
import type { DispatchOutcome, DispatchRequest } from './dispatch-types.js';

export type { DispatchOutcome, DispatchRequest, DispatchStatus } from './dispatch-types.js';

export interface DispatcherDeps {
  /** Resolves the outbox's `secret://` reference to its value, at send time only. */
  resolveSecret(companyId: string, ref: string): Promise<string>;
}

/** Statuses a replay returns as they are: sending again could reach the recipient twice, or overrule the board. */
const FINAL_FOR_REPLAY = new Set<CrmActivityRow['status']>(['sent', 'sent_dryrun', 'draft_pending_approval', 'sending', 'rejected']);

type Step = { done: DispatchOutcome } | { send: CrmActivityRow; day: string };
type Mode = { kind: 'send' } | { kind: 'approved'; activityId: string };

/**
 * The one dispatcher (spec 4.8 rule 1): POST /crm/send, single approve, bulk-approve and the
 * sequence scheduler all end here. Steps: validate → dedup → allowlist → approval rules → quota →
 * channel. SQLite cannot hold a transaction across the network call, so the quota unit is reserved
 * in one transaction (activity `sending`), the channel is called, and the outcome is committed in a
 * second; sends are serialized in process (see `run`) so a replay sees the first outcome.
 */
export function createDispatcher(ctx: CoreContext, deps: DispatcherDeps) {
  const lanes = new Map<string, Promise<void>>();

  function inLane<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const run = (lanes.get(key) ?? Promise.resolve()).then(fn);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    lanes.set(key, tail);
    void tail.then(() => {
      if (lanes.get(key) === tail) lanes.delete(key);
    });
    return run;
  }

  const field = (path: string, message: string) => validationError([{ location: 'body', path, message }]);

  /** Step 0: everything that can be refused with a 400/404 before any record is written. */
  function prepare(req: DispatchRequest): PreparedSend {
    if (req.actor !== 'system') {
      assertCompanyAccess(req.actor, req.companyId);
      assertCompany(ctx.db, req.actor, req.companyId);
    }
    const outbox = ctx.db
      .select()
      .from(crmOutboxes)
      .where(and(eq(crmOutboxes.id, req.outboxId), eq(crmOutboxes.companyId, req.companyId), isNull(crmOutboxes.deletedAt)))
      .get();
    if (!outbox) throw notFound('Outbox');
    if (outbox.channel !== req.channel) throw badRequest('channel_mismatch', `body.channel: the outbox sends on ${outbox.channel}, not ${req.channel}`);
    const adapter = channelAdapters[outbox.channel];
    const parsed = adapter.payloadSchema.safeParse(req.payload);
    if (!parsed.success) {
      throw validationError(parsed.error.issues.map((i) => ({ location: 'body', path: ['body.payload', ...i.path.map(String)].join('.'), message: i.message })));
    }
    const kind = req.kind ?? adapter.kinds[0];
    if (!adapter.kinds.includes(kind)) throw field('body.kind', `must be one of ${adapter.kinds.join(', ')} for ${outbox.channel}`);
    const contact = parseContact(adapter.contact, req.to);
    if (!contact) throw field('body.to', `must be ${contactFormHint[adapter.contact]}`);
    let pieceTags: string[] = [];
    let pieceNiche: string | null = null;
    if (req.contentPieceId) {
      const piece = ctx.db
        .select({ tags: crmContentPieces.tags, niche: crmContentPieces.niche })
        .from(crmContentPieces)
        .where(and(eq(crmContentPieces.id, req.contentPieceId), eq(crmContentPieces.companyId, req.companyId), isNull(crmContentPieces.deletedAt)))
        .get();
      if (!piece) throw field('body.contentPieceId', 'must be a live content piece of this company');
      pieceTags = piece.tags;
      pieceNiche = piece.niche;
    }
    const dedupKey = req.dedupKey ?? computeDedupKey(actorPartOf(req.actor), contact.value, kind, req.payload);
    if (req.clientDedupKey !== undefined && req.dedupKey === undefined && req.clientDedupKey.toLowerCase() !== dedupKey) {
      throw badRequest('dedup_key_mismatch', 'body.clientDedupKey: does not match sha256 over [actor, contact, kind, payload] (see docs/crm.md)', { expected: dedupKey });
    }
    return {
      companyId: req.companyId,
      actor: req.actor,
      outbox,
      adapter,
      contact,
      kind,
      payload: req.payload,
      tags: [...new Set([...(req.tags ?? []), ...pieceTags])],
      niche: outbox.niche ?? pieceNiche,
      contentPieceId: req.contentPieceId ?? null,
      dedupKey,
      origin: req.origin ?? 'api',
      originRef: req.originRef ?? null,
    };
  }

  /** Steps 1–4 in one IMMEDIATE transaction: dedup, allowlist, rules, quota reservation. */
  function decide(tx: Tx, p: PreparedSend, mode: Mode): Step {
    const at = isoNow(ctx);
    const existing = mode.kind === 'send' ? findByDedupKey(tx, p.companyId, p.dedupKey) : loadActivity(tx, mode.activityId);
    if (mode.kind === 'approved') {
      // Another approval (or recovery) already dispatched this draft.
      if (!existing) throw notFound('CRM activity');
      if (existing.status !== 'draft_pending_approval' || !existing.approvedAt) return { done: { activity: existing, replayed: true } };
    } else if (existing && (FINAL_FOR_REPLAY.has(existing.status) || existing.possiblySent)) {
      return { done: { activity: existing, replayed: true } };
    }
    // Read again under the write lock: the outbox may have been deleted or changed (cap, config)
    // while this send waited in its lane.
    const outbox = tx.select().from(crmOutboxes).where(eq(crmOutboxes.id, p.outbox.id)).get();
    if (!outbox || outbox.deletedAt) {
      if (mode.kind === 'send') throw notFound('Outbox');
      return { done: { activity: writeOutcome(tx, at, p, existing, { status: 'failed', errorCode: 'outbox_unavailable', errorMessage: 'The outbox was deleted' }), replayed: false } };
    }
    p.outbox = outbox;
    if (!allowlistEntryFor(tx, p.outbox, p.contact)) {
      return { done: { activity: writeOutcome(tx, at, p, existing, { status: 'blocked_by_allowlist' }), replayed: false } };
    }
    let decision: { ruleId: string | null; decision: CrmActivityRow['decision'] } = { ruleId: null, decision: 'board_approved' };
    if (mode.kind === 'send') {
      const rules = tx
        .select()
        .from(crmApprovalRules)
        .where(and(eq(crmApprovalRules.companyId, p.companyId), isNull(crmApprovalRules.deletedAt), eq(crmApprovalRules.enabled, true)))
        .orderBy(asc(crmApprovalRules.priority), asc(crmApprovalRules.createdAt), asc(crmApprovalRules.id))
        .all();
      const rule = firstMatchingRule(rules, { channel: p.outbox.channel, niche: p.niche, tags: p.tags, at: ctx.clock.now() });
      decision = { ruleId: rule?.id ?? null, decision: rule?.action ?? 'queue_for_manual' };
      if (decision.decision === 'queue_for_manual') {
        return { done: { activity: writeOutcome(tx, at, p, existing, { status: 'draft_pending_approval', ...decision, decidedAt: at }), replayed: false } };
      }
    }
    const decided = mode.kind === 'send' ? { ...decision, decidedAt: at } : {};
    if (p.outbox.channel === 'dry-run' || readForceDryRun(tx)) {
      // A dry run sends nothing, so it takes no quota: rehearsing must not eat the day's real sends.
      return { done: { activity: writeOutcome(tx, at, p, existing, { status: 'sent_dryrun', dryRun: true, sentAt: at, ...decided }), replayed: false } };
    }
    const day = utcDay(ctx.clock.now());
    if (!reserveQuota(tx, p.outbox, day, at).reserved) {
      return { done: { activity: writeOutcome(tx, at, p, existing, { status: 'blocked_by_quota', ...decided }), replayed: false } };
    }
    const row = writeOutcome(tx, at, p, existing, { status: 'sending', quotaDay: day, dryRun: false, attempts: (existing?.attempts ?? 0) + 1, ...decided });
    return { send: row, day };
  }

  /** Step 5 outside any transaction, then the outcome in a second one. */
  async function deliver(p: PreparedSend, row: CrmActivityRow, day: string): Promise<DispatchOutcome> {
    let secret: string | null = null;
    let result: ChannelResult;
    try {
      if (p.outbox.secretRef) secret = await deps.resolveSecret(p.companyId, p.outbox.secretRef);
      result = await p.adapter.send({ config: p.outbox.config, payload: p.payload, to: p.contact.value, kind: p.kind, secret, activityId: row.id });
    } catch (err) {
      const code = err instanceof ChannelError || err instanceof ServiceError ? err.code : 'channel_error';
      let message = err instanceof Error ? err.message : String(err);
      if (secret) message = message.replaceAll(secret, '[redacted]');
      const activity = inTransaction(ctx, (tx) => {
        const at = isoNow(ctx);
        refundQuota(tx, p.outbox.id, day, at);
        return updateActivity(tx, at, p.actor, row.id, { status: 'failed', quotaDay: null, errorCode: code, errorMessage: message.slice(0, 1000) });
      });
      return { activity, replayed: false };
    }
    // Outside the try: once the channel accepted, a failure to record it must not become `failed`
    // with a refund; the row stays `sending` and start-up recovery marks it possibly sent.
    const activity = inTransaction(ctx, (tx) => {
      const at = isoNow(ctx);
      return updateActivity(tx, at, p.actor, row.id, { status: 'sent', quotaDay: null, providerMessageId: result.providerMessageId, sentAt: at, errorCode: null, errorMessage: null });
    });
    return { activity, replayed: false };
  }

  /**
   * Two lanes: per dedup key (the same message sent through two outboxes waits for the first
   * outcome instead of seeing it mid-flight) and per outbox (exact cap, ordered sends). The outbox
   * lane is always the inner one, so the two cannot wait on each other.
   */
  function run(p: PreparedSend, mode: Mode): Promise<DispatchOutcome> {
    return inLane(`key:${p.companyId}:${p.dedupKey}`, () =>
      inLane(`outbox:${p.outbox.id}`, async () => {
        const step = inTransaction(ctx, (tx) => decide(tx, p, mode));
        return 'done' in step ? step.done : deliver(p, step.send, step.day);
      }),
    );
  }

  /** Rebuilds the prepared message of a stored draft; its outbox may be gone since. */
  function prepareStored(row: CrmActivityRow, actor: Actor | 'system'): PreparedSend | null {
    const outbox = ctx.db.select().from(crmOutboxes).where(eq(crmOutboxes.id, row.outboxId)).get();
    if (!outbox || outbox.deletedAt) return null;
    const adapter = channelAdapters[outbox.channel];
    const contact = parseContact(adapter.contact, row.contact);
    if (!contact) return null;
    return {
      companyId: row.companyId,
      actor,
      outbox,
      adapter,
      contact,
      kind: row.kind,
      payload: row.payload,
      tags: row.tags,
      niche: row.niche,
      contentPieceId: row.contentPieceId,
      dedupKey: row.dedupKey,
      origin: row.origin,
      originRef: row.originRef,
    };
  }

  /** Sends a draft the board approved (approvedAt set in an earlier, committed transaction). */
  async function dispatchApproved(activityId: string, actor: Actor | 'system'): Promise<DispatchOutcome> {
    const row = loadActivity(ctx.db, activityId);
    if (!row) throw notFound('CRM activity');
    const p = prepareStored(row, actor);
    if (!p) {
      const activity = inTransaction(ctx, (tx) =>
        updateActivity(tx, isoNow(ctx), actor, row.id, { status: 'failed', errorCode: 'outbox_unavailable', errorMessage: 'The outbox was deleted or no longer accepts this recipient' }),
      );
      return { activity, replayed: false };
    }
    return run(p, { kind: 'approved', activityId });
  }

  /**
   * Approves drafts in one transaction (all or nothing: any id that is not a pending draft of this
   * company refuses the whole request with the reasons), then dispatches each. Board only.
   */
  async function approveDrafts(actor: Actor, companyId: string, ids: readonly string[], what: string): Promise<DispatchOutcome[]> {
    if (actor.kind !== 'board') throw forbidden(`Only an instance administrator may ${what}`, 'forbidden');
    assertCompany(ctx.db, actor, companyId);
    const unique = [...new Set(ids)];
    inTransaction(ctx, (tx) => {
      const rows = unique.length ? tx.select().from(crmActivities).where(and(eq(crmActivities.companyId, companyId), inArray(crmActivities.id, unique))).all() : [];
      const byId = new Map(rows.map((r) => [r.id, r]));
      const problems: { id: string; reason: string; status?: string }[] = [];
      for (const id of unique) {
        const r = byId.get(id);
        if (!r) problems.push({ id, reason: 'not_found' });
        else if (r.status !== 'draft_pending_approval') problems.push({ id, reason: 'not_pending', status: r.status });
        else if (r.approvedAt) problems.push({ id, reason: 'already_approved', status: r.status });
      }
      if (problems.length > 0) {
        throw conflict('not_pending', `${problems.length} of ${unique.length} id(s) are not drafts pending approval; nothing was approved`, { problems });
      }
      const at = isoNow(ctx);
      for (const id of unique) updateActivity(tx, at, actor, id, { status: 'draft_pending_approval', approvedAt: at, decision: 'board_approved', ruleId: null, decidedAt: at }, 'crm.activity.approved');
    });
    return Promise.all(unique.map((id) => dispatchApproved(id, actor)));
  }

  return {
    /** POST /crm/send and the sequence scheduler. Every outcome is an activity (HTTP 200). */
    dispatch(req: DispatchRequest): Promise<DispatchOutcome> {
      const p = prepare(req);
      return run(p, { kind: 'send' });
    },
    /** Single approve of a draft (board). 404 unknown, 409 not pending. */
    async approve(actor: Actor, companyId: string, activityId: string): Promise<DispatchOutcome> {
      const row = actor.kind === 'board' ? loadActivity(ctx.db, activityId) : undefined;
      if (actor.kind === 'board' && row?.companyId !== companyId) throw notFound('CRM activity');
      const [outcome] = await approveDrafts(actor, companyId, [activityId], 'approve CRM drafts');
      return outcome!;
    },
    /** Bulk-approve (spec 4.8 rule 3): instance administrators only; one transaction for the decision. */
    bulkApprove(actor: Actor, companyId: string, ids: readonly string[]): Promise<DispatchOutcome[]> {
      return approveDrafts(actor, companyId, ids, 'bulk-approve CRM drafts');
    },
    /** Drafts approved before a crash and never dispatched are dispatched now (recovery). */
    resumeApproved: (activityId: string) => dispatchApproved(activityId, 'system'),
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
