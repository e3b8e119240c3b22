import { and, eq, isNull } from 'drizzle-orm';
import { keyset, type KeysetPage, type KeysetQuery } from '../db/keyset.js';
import type { Actor } from '../kernel/actor.js';
import { inTransaction, isoNow, type CoreContext, type Queryable } from '../context.js';
import { assertBoard } from '../kernel/access.js';
import { notFound } from '../kernel/errors.js';
import { recordActivity } from '../activity/service.js';
import { assertCompany } from '../companies/service.js';
import { newId } from '../kernel/ids.js';
import { localMinutes, ruleMatches } from './rule-matcher.js';
import { crmApprovalRules, type CrmApprovalRuleRow, type CrmRulePredicate } from './schema.js';
import type { ApprovalRule, CreateRuleInput, PreviewRuleInput, UpdateRuleInput } from './contract.js';
import { toRule } from './present.js';
import type { ActivityKind } from '../kernel/events.js';

function requireRule(db: Queryable, companyId: string, ruleId: string): CrmApprovalRuleRow {
  const row = db
    .select()
    .from(crmApprovalRules)
    .where(and(eq(crmApprovalRules.id, ruleId), eq(crmApprovalRules.companyId, companyId), isNull(crmApprovalRules.deletedAt)))
    .get();
  if (!row) throw notFound('Approval rule');
  return row;
}

/** Drops absent and null predicate fields so stored predicates stay minimal and comparable. */
function cleanPredicate(p: CreateRuleInput['predicate']): CrmRulePredicate {
  const out: CrmRulePredicate = {};
  if (p.channel) out.channel = p.channel;
  if (p.niche != null) out.niche = p.niche;
  if (p.tags?.length) out.tags = p.tags;
  if (p.timeOfDay) out.timeOfDay = p.timeOfDay;
  return out;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Approval rules (spec 2.10, 4.8 rule 2). Read by the company; written by the board only. */
export function createRulesService(ctx: CoreContext) {
  function record(tx: Queryable, at: string, actor: Actor, row: CrmApprovalRuleRow, action: ActivityKind, summary: string): void {
    recordActivity(tx, at, actor, { companyId: row.companyId, action, entityType: 'crm_approval_rule', entityId: row.id, summary, details: { action: row.action, priority: row.priority } });
  }

  return {
    /**
     * In evaluation order (the dispatcher's: priority ascending, then creation), one keyset page at
     * a time. Keyed on (priority, rowid), the same order as the dispatcher's (priority, createdAt,
     * id): a rule's row is inserted once, when `create` stamps its createdAt (nothing changes it
     * later, and an import inserts rows in their exported rowid order); a new rowid is above every
     * existing one, so rowids rise with creation times (on a clock that does not step back), and the
     * ids of one millisecond rise with them (kernel/ids.ts). crm_approval_rules_company_idx
     * (company_id, priority, then the rowid every index entry ends with) serves this order.
     */
    list(actor: Actor, companyId: string, page: KeysetQuery): KeysetPage<ApprovalRule> {
      assertCompany(ctx.db, actor, companyId);
      return keyset(crmApprovalRules, crmApprovalRules.priority, 'asc').pageOf(ctx.db, and(eq(crmApprovalRules.companyId, companyId), isNull(crmApprovalRules.deletedAt)), page, toRule);
    },

    create(actor: Actor, companyId: string, input: CreateRuleInput): ApprovalRule {
      assertBoard(actor, 'change CRM approval rules');
      return inTransaction(ctx, (tx) => {
        assertCompany(tx, actor, companyId);
        const at = isoNow(ctx);
        const row = tx
          .insert(crmApprovalRules)
          .values({ id: newId(), companyId, name: input.name ?? null, predicate: cleanPredicate(input.predicate), action: input.action, priority: input.priority, enabled: input.enabled, createdAt: at, updatedAt: at })
          .returning()
          .get();
        record(tx, at, actor, row, 'crm.rule.created', `Approval rule created (${row.action}, priority ${row.priority})`);
        return toRule(row);
      });
    },

    update(actor: Actor, companyId: string, ruleId: string, input: UpdateRuleInput): ApprovalRule {
      assertBoard(actor, 'change CRM approval rules');
      return inTransaction(ctx, (tx) => {
        assertCompany(tx, actor, companyId);
        const row = requireRule(tx, companyId, ruleId);
        const at = isoNow(ctx);
        const next = tx
          .update(crmApprovalRules)
          .set({
            ...(input.name !== undefined ? { name: input.name } : {}),
            ...(input.predicate !== undefined ? { predicate: cleanPredicate(input.predicate) } : {}),
            ...(input.action !== undefined ? { action: input.action } : {}),
            ...(input.priority !== undefined ? { priority: input.priority } : {}),
            ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
            updatedAt: at,
          })
          .where(eq(crmApprovalRules.id, row.id))
          .returning()
          .get();
        record(tx, at, actor, next, 'crm.rule.updated', `Approval rule updated (${next.action}, priority ${next.priority})`);
        return toRule(next);
      });
    },

    /** Soft delete: activities decided by the rule keep pointing at it. */
    remove(actor: Actor, companyId: string, ruleId: string): void {
      assertBoard(actor, 'change CRM approval rules');
      inTransaction(ctx, (tx) => {
        assertCompany(tx, actor, companyId);
        const row = requireRule(tx, companyId, ruleId);
        const at = isoNow(ctx);
        tx.update(crmApprovalRules).set({ deletedAt: at, updatedAt: at }).where(eq(crmApprovalRules.id, row.id)).run();
        record(tx, at, actor, row, 'crm.rule.deleted', 'Approval rule deleted');
      });
    },

    /**
     * Whether this one rule matches a hypothetical message, and the action it would take. Reads
     * only: nothing is written, no event is raised. A disabled rule is previewed as if enabled.
     */
    preview(actor: Actor, companyId: string, ruleId: string, input: PreviewRuleInput) {
      assertCompany(ctx.db, actor, companyId);
      const rule = requireRule(ctx.db, companyId, ruleId);
      const at = input.at ? new Date(input.at) : ctx.clock.now();
      const matches = ruleMatches(rule.predicate, { channel: input.channel, niche: input.niche ?? null, tags: input.tags, at });
      const tz = rule.predicate.timeOfDay?.tz;
      const minutes = tz ? localMinutes(at, tz) : null;
      return {
        ruleId: rule.id,
        matches,
        action: rule.action,
        at: at.toISOString(),
        localTime: minutes === null ? null : `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`,
      };
    },
  };
}
