import type { KeysetPage, KeysetQuery } from '../db/keyset.js';
import { canonicalJson } from '../kernel/canonical-json.js';
import { and, eq, isNull } from 'drizzle-orm';
import { agents, agentApiKeys, type AgentRow, type AgentStatus } from './schema.js';
import { verifiedKeysOf } from './verified-keys.js';
import type { Agent, ConfigRevision, CreateAgentInput, PatchAgentInput } from './contract.js';
import { presentAgent, presentCompanyAgentsJson } from './present.js';
import { jsonArray } from '../kernel/json-text.js';
import { assertConfinementByBoard, validateAdapterConfig } from './adapter-config.js';
import { appendConfigRevision, findConfigRevision, listConfigRevisions } from './revisions.js';
import { assertNameFree, assertUrlKeyFree, uniqueUrlKey } from './naming.js';
import { assertRoomFor } from '../limits/capacity.js';
import { newId } from '../kernel/ids.js';
import type { Actor } from '../kernel/actor.js';
import { assertBoard, assertRecordAccess } from '../kernel/access.js';
import { badRequest, conflict, forbidden, notFound } from '../kernel/errors.js';
import { recordActivity } from '../activity/service.js';
import { requireCompany, assertCompany } from '../companies/service.js';
import { inTransaction, isoNow, type CoreContext, type Queryable, type Tx } from '../context.js';
import { changedFields } from '../kernel/patch.js';
import { cancelRuns, reconcileAgentBudget, settleBudgetPause, settleBudgetPauses, type RunCancellation } from '../costs/budget-rules.js';
import { budgetStop } from '../costs/budget-check.js';

/** Loads an agent the actor may see; a foreign agent is "not found" like a missing one. */
export function requireAgent(db: Queryable, actor: Actor, agentId: string): AgentRow {
  const row = db.select().from(agents).where(eq(agents.id, agentId)).get();
  if (!row) throw notFound('Agent');
  assertRecordAccess(actor, row.companyId, 'Agent');
  return row;
}

function reportsToProblem(message: string, code = 'invalid_reports_to') {
  return badRequest(code, `body.reportsTo: ${message}`, {
    problems: [{ location: 'body', path: 'body.reportsTo', message }],
  });
}

/** The manager must be a living agent of the same company, and the chain must not loop (also used by hire resubmissions). */
export function assertValidManager(db: Queryable, companyId: string, agentId: string | null, managerId: string): void {
  if (managerId === agentId) throw reportsToProblem('an agent cannot report to itself', 'reports_to_cycle');
  let current: string | null = managerId;
  const seen = new Set<string>();
  let first = true;
  while (current && !seen.has(current)) {
    seen.add(current);
    const row = db
      .select({ id: agents.id, companyId: agents.companyId, status: agents.status, reportsTo: agents.reportsTo })
      .from(agents)
      .where(eq(agents.id, current))
      .get();
    if (!row || row.companyId !== companyId) {
      if (first) throw reportsToProblem('must be an agent of the same company');
      break;
    }
    if (first && row.status === 'terminated') throw reportsToProblem('cannot report to a terminated agent');
    if (agentId && row.reportsTo === agentId) throw reportsToProblem('this would make a reporting cycle', 'reports_to_cycle');
    first = false;
    current = row.reportsTo;
  }
}

// The agent list is read whole (spec 4.2): built once per connection, with rows mapped by a reader
// worked out once (db/prepared.ts), rather than built and mapped afresh for each request.
/** Fields an agent may change on its own record; everything else is the board's. */
const SELF_EDITABLE = new Set<keyof PatchAgentInput>(['title', 'capabilities']);

export interface NewAgentRecord extends CreateAgentInput {
  status: Extract<AgentStatus, 'idle' | 'draft'>;
}

export function createAgentsService(ctx: CoreContext) {
  const now = () => ctx.clock.now();

  /** Inserts an agent and its first configuration revision inside `tx` (also used by hires). */
  function insertAgent(tx: Tx, actor: Actor, companyId: string, input: NewAgentRecord): AgentRow {
    const company = requireCompany(tx, actor, companyId);
    if (company.status === 'archived') throw conflict('company_archived', 'Unarchive the company before adding agents');
    assertRoomFor(tx, 'agents', companyId);
    assertConfinementByBoard(actor, input.adapterConfig);
    const adapterConfig = validateAdapterConfig(ctx.adapters, input.adapterType, input.adapterConfig ?? {}, tx, companyId);
    if (input.reportsTo) assertValidManager(tx, companyId, null, input.reportsTo);
    assertNameFree(tx, companyId, input.name);
    let urlKey = input.urlKey;
    if (urlKey) assertUrlKeyFree(tx, companyId, urlKey);
    else urlKey = uniqueUrlKey(tx, companyId, input.name);
    const at = isoNow(ctx);
    const row = tx
      .insert(agents)
      .values({
        id: newId(),
        companyId,
        name: input.name,
        urlKey,
        role: input.role ?? '',
        title: input.title ?? '',
        reportsTo: input.reportsTo ?? null,
        capabilities: input.capabilities ?? '',
        status: input.status,
        adapterType: input.adapterType,
        adapterConfig,
        budgetMonthlyCents: input.budgetMonthlyCents ?? 0,
        createdAt: at,
        updatedAt: at,
      })
      .returning()
      .get();
    appendConfigRevision(tx, at, actor, { agentId: row.id, adapterType: row.adapterType, adapterConfig, reason: 'create' });
    recordActivity(tx, at, actor, {
      companyId,
      action: input.status === 'draft' ? 'agent.drafted' : 'agent.created',
      entityType: 'agent',
      entityId: row.id,
      summary: `Agent "${row.name}" ${input.status === 'draft' ? 'drafted for hire' : 'created'} (${row.adapterType})`,
    });
    return row;
  }

  function transition(actor: Actor, agentId: string, action: 'pause' | 'resume' | 'terminate'): Agent {
    assertBoard(actor, `${action} agents`);
    const agent = applyTransition(actor, agentId, action);
    // Pausing or terminating stops the heartbeat that is running now (after the change committed).
    if (action !== 'resume' && (agent.status === 'paused' || agent.status === 'terminated')) ctx.runs.cancelRunsOf(agentId, action === 'pause' ? 'paused' : 'terminated');
    return agent;
  }

  function applyTransition(actor: Actor, agentId: string, action: 'pause' | 'resume' | 'terminate'): Agent {
    return inTransaction(ctx, (tx) => {
      const row = requireAgent(tx, actor, agentId);
      const at = isoNow(ctx);
      let changes: Partial<AgentRow>;
      if (row.status === 'terminated') {
        if (action === 'terminate') return presentAgent(tx, actor, row, now());
        throw conflict('agent_terminated', 'This agent was terminated; termination is permanent');
      }
      if (action === 'terminate') {
        changes = { status: 'terminated', pauseReason: null, terminatedAt: at };
        tx.update(agentApiKeys)
          .set({ revokedAt: at })
          .where(and(eq(agentApiKeys.agentId, agentId), isNull(agentApiKeys.revokedAt)))
          .run();
        verifiedKeysOf(ctx).forgetAll();
        // Direct reports move up to the terminated agent's manager so the org stays connected.
        tx.update(agents).set({ reportsTo: row.reportsTo, updatedAt: at }).where(eq(agents.reportsTo, agentId)).run();
      } else if (row.status === 'draft') {
        throw conflict('agent_draft', 'This agent is a draft awaiting its hire approval');
      } else if (action === 'pause') {
        if (row.status === 'paused') return presentAgent(tx, actor, row, now());
        changes = { status: 'paused', pauseReason: 'manual' };
      } else {
        if (row.status !== 'paused') return presentAgent(tx, actor, row, now());
        // Resuming never overrides the agent's own budget: raise it first (which resumes a budget
        // pause by itself). A company budget stop does not block resume; budgetStop() holds runs.
        const stop = budgetStop(tx, row.companyId, agentId, now());
        if (stop?.scope === 'agent') throw conflict('budget_exceeded', `${stop.reason}; raise its budget to resume it`);
        changes = { status: 'idle', pauseReason: null };
      }
      const updated = tx
        .update(agents)
        .set({ ...changes, updatedAt: at })
        .where(eq(agents.id, agentId))
        .returning()
        .get();
      recordActivity(tx, at, actor, {
        companyId: row.companyId,
        action: action === 'terminate' ? 'agent.terminated' : action === 'pause' ? 'agent.paused' : 'agent.resumed',
        entityType: 'agent',
        entityId: agentId,
        summary: `Agent "${row.name}" ${action === 'terminate' ? 'terminated' : action === 'pause' ? 'paused' : 'resumed'}`,
      });
      return presentAgent(tx, actor, updated, now());
    });
  }

  return {
    insertAgent,

    list(actor: Actor, companyId: string): Agent[] {
      assertCompany(ctx.db, actor, companyId);
      settleBudgetPauses(ctx, companyId);
      return jsonArray<Agent[]>(presentCompanyAgentsJson(ctx.db, actor, companyId, now()));
    },

    get(actor: Actor, agentId: string): Agent {
      return presentAgent(ctx.db, actor, settleBudgetPause(ctx, requireAgent(ctx.db, actor, agentId)), now());
    },

    me(actor: Actor): Agent {
      if (actor.kind !== 'agent') throw forbidden('GET /api/agents/me needs an agent credential; the board token is not an agent', 'not_an_agent');
      return presentAgent(ctx.db, actor, settleBudgetPause(ctx, requireAgent(ctx.db, actor, actor.agentId)), now());
    },

    create(actor: Actor, companyId: string, input: CreateAgentInput): Agent {
      // Agents grow the org through hire requests, which the board approves.
      assertBoard(actor, 'create agents directly (agents use hire requests)');
      return inTransaction(ctx, (tx) => presentAgent(tx, actor, insertAgent(tx, actor, companyId, { ...input, status: 'idle' }), now()));
    },

    patch(actor: Actor, agentId: string, patch: PatchAgentInput): Agent {
      const cancellations: RunCancellation[] = [];
      const result = inTransaction(ctx, (tx) => {
        const row = requireAgent(tx, actor, agentId);
        if (actor.kind === 'agent') {
          if (actor.agentId !== agentId) throw forbidden("An agent may not change another agent's configuration", 'not_own_agent');
          const denied = (Object.keys(patch) as (keyof PatchAgentInput)[]).filter((k) => !SELF_EDITABLE.has(k));
          if (denied.length) throw forbidden(`Only the board may change ${denied.join(', ')}`, 'board_only');
        }
        if (row.status === 'terminated') throw conflict('agent_terminated', 'This agent was terminated; termination is permanent');
        const changes: Partial<AgentRow> = {};
        if (patch.name !== undefined && patch.name !== row.name) {
          assertNameFree(tx, row.companyId, patch.name, agentId);
          changes.name = patch.name;
        }
        if (patch.urlKey !== undefined && patch.urlKey !== row.urlKey) {
          assertUrlKeyFree(tx, row.companyId, patch.urlKey, agentId);
          changes.urlKey = patch.urlKey;
        }
        Object.assign(
          changes,
          changedFields(row, { role: patch.role, title: patch.title, capabilities: patch.capabilities, budgetMonthlyCents: patch.budgetMonthlyCents }),
        );
        if (patch.reportsTo !== undefined && patch.reportsTo !== row.reportsTo) {
          if (patch.reportsTo) assertValidManager(tx, row.companyId, agentId, patch.reportsTo);
          changes.reportsTo = patch.reportsTo;
        }
        let configChanged = false;
        if (patch.adapterType !== undefined || patch.adapterConfig !== undefined) {
          const type = patch.adapterType ?? row.adapterType;
          const config = validateAdapterConfig(ctx.adapters, type, patch.adapterConfig ?? row.adapterConfig, tx, row.companyId);
          // Only what really changed is listed in the activity record's fields.
          if (type !== row.adapterType) changes.adapterType = type;
          if (canonicalJson(config) !== canonicalJson(row.adapterConfig)) changes.adapterConfig = config;
          configChanged = changes.adapterType !== undefined || changes.adapterConfig !== undefined;
        }
        const fields = Object.keys(changes);
        if (fields.length === 0) return presentAgent(tx, actor, row, now());
        const at = isoNow(ctx);
        const updated = tx
          .update(agents)
          .set({ ...changes, updatedAt: at })
          .where(eq(agents.id, agentId))
          .returning()
          .get();
        if (configChanged) {
          appendConfigRevision(tx, at, actor, {
            agentId,
            adapterType: updated.adapterType,
            adapterConfig: updated.adapterConfig,
            reason: 'update',
          });
        }
        recordActivity(tx, at, actor, {
          companyId: row.companyId,
          action: 'agent.updated',
          entityType: 'agent',
          entityId: agentId,
          summary: `Agent "${updated.name}" updated: ${fields.join(', ')}`,
          details: {
            fields,
            ...(changes.budgetMonthlyCents !== undefined
              ? { budgetMonthlyCents: { from: row.budgetMonthlyCents, to: changes.budgetMonthlyCents } }
              : {}),
          },
        });
        if (changes.budgetMonthlyCents === undefined) return presentAgent(tx, actor, updated, now());
        // A budget at or below this month's spend pauses the agent; one above it lifts a budget pause.
        const cancellation = reconcileAgentBudget(tx, at, now(), agentId);
        if (cancellation) cancellations.push(cancellation);
        return presentAgent(tx, actor, requireAgent(tx, actor, agentId), now());
      });
      cancelRuns(ctx, cancellations);
      return result;
    },

    pause: (actor: Actor, agentId: string) => transition(actor, agentId, 'pause'),
    resume: (actor: Actor, agentId: string) => transition(actor, agentId, 'resume'),
    terminate: (actor: Actor, agentId: string) => transition(actor, agentId, 'terminate'),

    revisions(actor: Actor, agentId: string, page: KeysetQuery): KeysetPage<ConfigRevision> {
      requireAgent(ctx.db, actor, agentId);
      return listConfigRevisions(ctx.db, actor, agentId, page);
    },

    /** Restores an earlier configuration as a new revision; history is never rewritten. */
    rollback(actor: Actor, agentId: string, revisionId: string): Agent {
      assertBoard(actor, 'roll back agent configuration');
      return inTransaction(ctx, (tx) => {
        const row = requireAgent(tx, actor, agentId);
        if (row.status === 'terminated') throw conflict('agent_terminated', 'This agent was terminated; termination is permanent');
        const revision = findConfigRevision(tx, agentId, revisionId);
        if (!revision) throw notFound('Configuration revision');
        // The old configuration must still be valid today (adapter installed, schema unchanged).
        const config = validateAdapterConfig(ctx.adapters, revision.adapterType, revision.adapterConfig, tx, row.companyId);
        const at = isoNow(ctx);
        const updated = tx
          .update(agents)
          .set({ adapterType: revision.adapterType, adapterConfig: config, updatedAt: at })
          .where(eq(agents.id, agentId))
          .returning()
          .get();
        const created = appendConfigRevision(tx, at, actor, {
          agentId,
          adapterType: revision.adapterType,
          adapterConfig: config,
          reason: 'rollback',
          rolledBackFromRevisionId: revision.id,
        });
        recordActivity(tx, at, actor, {
          companyId: row.companyId,
          action: 'agent.config_rolled_back',
          entityType: 'agent',
          entityId: agentId,
          summary: `Agent "${row.name}" configuration rolled back to revision ${revision.revisionNumber} (now revision ${created.revisionNumber})`,
        });
        return presentAgent(tx, actor, updated, now());
      });
    },
  };
}

export type AgentsService = ReturnType<typeof createAgentsService>;
