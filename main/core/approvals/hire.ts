import { eq } from 'drizzle-orm';
import { agents, type AgentRow } from '../agents/schema.js';
import { assertValidManager, createAgentsService } from '../agents/service.js';
import { assertConfinementByBoard, validateAdapterConfig } from '../agents/adapter-config.js';
import { appendConfigRevision } from '../agents/revisions.js';
import { assertNameFree, slugify, uniqueUrlKey } from '../agents/naming.js';
import { presentAgent } from '../agents/present.js';
import type { Agent } from '../agents/contract.js';
import type { ApprovalRow } from './schema.js';
import type { Approval, ApprovalDetail, CreateHireInput, HireAgentPayload } from './contract.js';
import { defaultHireAdapter } from './hire-defaults.js';
import { assertSecretsGranted, configSeenBy } from '../secrets/grants.js';
import type { Queryable } from '../context.js';
import { approvalDetail, insertApproval, resolveRequester } from './records.js';
import type { Actor } from '../kernel/actor.js';
import { conflict } from '../kernel/errors.js';
import { recordActivity } from '../activity/service.js';
import { assertCompany } from '../companies/service.js';
import { canonicalJson } from '../kernel/canonical-json.js';
import { inTransaction, isoNow, type CoreContext, type Tx } from '../context.js';

/** The stored payload says exactly what the draft is: the agent's own values, defaults applied. */
function payloadOf(agent: AgentRow, reason: string): HireAgentPayload {
  return {
    version: 1,
    name: agent.name,
    role: agent.role,
    title: agent.title,
    reportsTo: agent.reportsTo,
    capabilities: agent.capabilities,
    budgetMonthlyCents: agent.budgetMonthlyCents,
    adapterType: agent.adapterType,
    adapterConfig: agent.adapterConfig,
    reason,
  };
}

/** The draft agent of a hire approval, which must still be a draft for the hire to go on. */
function requireDraft(tx: Tx, approval: ApprovalRow): AgentRow {
  const agent = approval.hireAgentId ? tx.select().from(agents).where(eq(agents.id, approval.hireAgentId)).get() : undefined;
  if (!agent) throw conflict('hire_agent_missing', 'This hire approval has no draft agent');
  if (agent.status === 'terminated') {
    throw conflict('agent_terminated', `The drafted agent "${agent.name}" was terminated; reject this hire instead`);
  }
  if (agent.status !== 'draft') throw conflict('agent_not_draft', `The agent "${agent.name}" is no longer a draft`, { status: agent.status });
  return agent;
}

/** Approval of a hire: the draft becomes an ordinary idle agent; its configuration revision stays as it is. */
export function activateDraft(tx: Tx, at: string, actor: Actor, approval: ApprovalRow): void {
  const agent = requireDraft(tx, approval);
  tx.update(agents).set({ status: 'idle', updatedAt: at }).where(eq(agents.id, agent.id)).run();
  recordActivity(tx, at, actor, {
    companyId: agent.companyId,
    action: 'agent.hired',
    entityType: 'agent',
    entityId: agent.id,
    summary: `Agent "${agent.name}" hired`,
    details: { approvalId: approval.id },
  });
}

/**
 * Rejection of a hire terminates the draft: it could never run anyway, and terminating frees its
 * name (names are unique among living agents) for a corrected hire request. The record stays.
 */
export function retireDraft(tx: Tx, at: string, actor: Actor, approval: ApprovalRow): void {
  const agent = approval.hireAgentId ? tx.select().from(agents).where(eq(agents.id, approval.hireAgentId)).get() : undefined;
  if (agent?.status !== 'draft') return;
  tx.update(agents).set({ status: 'terminated', pauseReason: null, terminatedAt: at, updatedAt: at }).where(eq(agents.id, agent.id)).run();
  // A hire may report to another pending hire; its reports move up, as on any termination.
  tx.update(agents).set({ reportsTo: agent.reportsTo, updatedAt: at }).where(eq(agents.reportsTo, agent.id)).run();
  recordActivity(tx, at, actor, {
    companyId: agent.companyId,
    action: 'agent.terminated',
    entityType: 'agent',
    entityId: agent.id,
    summary: `Agent "${agent.name}" terminated: its hire was rejected`,
    details: { approvalId: approval.id },
  });
}

/**
 * A resubmitted hire updates the draft to match, under the same rules as creating an agent, and
 * returns the payload to store (the agent's values, so payload and draft never disagree).
 */
export function updateDraft(ctx: CoreContext, tx: Tx, at: string, actor: Actor, approval: ApprovalRow, hire: HireAgentPayload): HireAgentPayload {
  const agent = requireDraft(tx, approval);
  // Without a configuration the draft keeps its own (agents see it without values, so they cannot
  // send it back); a new adapter type without one starts from that type's defaults.
  const adapterType = hire.adapterType ?? agent.adapterType;
  const p = { ...hire, adapterType, adapterConfig: hire.adapterConfig ?? (adapterType === agent.adapterType ? agent.adapterConfig : {}) };
  assertConfinementByBoard(actor, hire.adapterConfig);
  assertSecretsGranted(tx, actor, p.adapterConfig);
  const adapterConfig = validateAdapterConfig(ctx.adapters, p.adapterType, p.adapterConfig, tx, agent.companyId);
  if (p.reportsTo) assertValidManager(tx, agent.companyId, agent.id, p.reportsTo);
  assertNameFree(tx, agent.companyId, p.name, agent.id);
  const changes: Partial<AgentRow> = {};
  if (p.name !== agent.name) {
    changes.name = p.name;
    // Nothing refers to a draft's shortname yet, so it follows the new name.
    if (slugify(p.name) !== slugify(agent.name)) changes.urlKey = uniqueUrlKey(tx, agent.companyId, p.name);
  }
  const next = { role: p.role, title: p.title ?? '', reportsTo: p.reportsTo, capabilities: p.capabilities, budgetMonthlyCents: p.budgetMonthlyCents };
  for (const key of Object.keys(next) as (keyof typeof next)[]) {
    if (next[key] !== agent[key]) Object.assign(changes, { [key]: next[key] });
  }
  const configChanged = p.adapterType !== agent.adapterType || canonicalJson(adapterConfig) !== canonicalJson(agent.adapterConfig);
  if (configChanged) Object.assign(changes, { adapterType: p.adapterType, adapterConfig });
  const fields = Object.keys(changes);
  if (fields.length === 0) return payloadOf(agent, p.reason ?? '');
  const updated = tx.update(agents).set({ ...changes, updatedAt: at }).where(eq(agents.id, agent.id)).returning().get();
  if (configChanged) appendConfigRevision(tx, at, actor, { agentId: agent.id, adapterType: p.adapterType, adapterConfig, reason: 'update' });
  recordActivity(tx, at, actor, {
    companyId: agent.companyId,
    action: 'agent.updated',
    entityType: 'agent',
    entityId: agent.id,
    summary: `Agent "${updated.name}" updated by a resubmitted hire: ${fields.join(', ')}`,
    details: { fields, approvalId: approval.id },
  });
  return payloadOf(updated, p.reason ?? '');
}

/**
 * An approval as `viewer` may see it: a hire's payload carries the draft's configuration, which
 * other agents see without values or secret ids, like any colleague's (secrets/grants.ts).
 */
export function approvalSeenBy<T extends Approval>(db: Queryable, viewer: Actor, approval: T): T {
  const config = approval.payload.adapterConfig;
  if (approval.type !== 'hire_agent' || config === null || typeof config !== 'object' || Array.isArray(config)) return approval;
  const seen = configSeenBy(db, viewer, approval.hireAgentId, approval.companyId, config as Record<string, unknown>);
  return seen === config ? approval : { ...approval, payload: { ...approval.payload, adapterConfig: seen } };
}

/** POST /api/companies/{id}/agent-hires: a draft agent and its hire_agent approval, in one transaction. */
export function createHiresService(ctx: CoreContext) {
  const agentsService = createAgentsService(ctx);
  return {
    create(actor: Actor, companyId: string, input: CreateHireInput): { agent: Agent; approval: ApprovalDetail } {
      return inTransaction(ctx, (tx) => {
        assertCompany(tx, actor, companyId);
        const requestedByAgentId = resolveRequester(tx, actor, companyId, input.requestedByAgentId);
        const { requestedByAgentId: _by, reason, adapterType, adapterConfig, ...fields } = input;
        // A hire requested by an agent may carry only the secrets that agent was granted itself.
        assertSecretsGranted(tx, actor, adapterConfig);
        // Without a type the hire runs like its nearest colleague; a configuration sent alone applies to that type.
        const fallback = adapterType ? undefined : defaultHireAdapter(tx, ctx.adapters, companyId, fields.reportsTo, requestedByAgentId);
        const adapter = fallback ? { adapterType: fallback.adapterType, adapterConfig: adapterConfig ?? fallback.adapterConfig } : { adapterType: adapterType!, adapterConfig };
        const agent = agentsService.insertAgent(tx, actor, companyId, { ...fields, ...adapter, status: 'draft' });
        const at = isoNow(ctx);
        const approval = insertApproval(tx, at, actor, {
          companyId,
          type: 'hire_agent',
          payload: payloadOf(agent, reason ?? ''),
          requestedByAgentId,
          hireAgentId: agent.id,
        });
        return { agent: presentAgent(tx, actor, agent, ctx.clock.now()), approval: approvalSeenBy(tx, actor, approvalDetail(tx, approval)) };
      });
    },
  };
}
