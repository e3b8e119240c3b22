import { z } from 'zod';
import { Cents, Id, LongText, Name, Timestamp } from '../kernel/common-contract.js';

export const AgentStatus = z
  .enum(['draft', 'idle', 'running', 'paused', 'error', 'terminated'])
  .describe(
    'draft: hire awaiting approval; idle: active, no heartbeat running; running: a heartbeat is active; ' +
      'paused: stopped by the board or by budget (see pauseReason); error: the last heartbeat failed, still schedulable; ' +
      'terminated: permanent',
  );

const UrlKeyText = z.string().regex(/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/, 'lowercase letters, digits and inner dashes, at most 64');
export const UrlKey = UrlKeyText.refine((k) => !/^[0-9a-f]{8}-[0-9a-f]{4}-/.test(k), 'must not look like a UUID');

export const ChainLink = z.object({ id: Id, name: z.string(), role: z.string() });

export const Agent = z
  .object({
    id: Id,
    companyId: Id,
    name: z.string(),
    // The stored key passed UrlKey's refinement when it was written. An answer's schema without the
    // refinement is one JSON Schema expresses exactly, so agents are written by a compiled
    // serializer rather than by zod (http/serializer.ts): a fifth of the agent list's CPU.
    urlKey: UrlKeyText.describe('The agent shortname: unique in the company, usable in issue assignment'),
    role: z.string(),
    title: z.string(),
    reportsTo: Id.nullable(),
    capabilities: z.string(),
    status: AgentStatus,
    pauseReason: z.enum(['manual', 'budget']).nullable(),
    adapterType: z.string(),
    adapterConfig: z.record(z.string(), z.unknown()).describe('Whole for the board and the agent itself; another agent sees every env and headers value as {"type":"hidden"} and every secret reference as {"type":"secret","name":…}'),
    budgetMonthlyCents: Cents.describe('0 means no limit'),
    spentMonthlyCents: z.number().describe('Spend in the current calendar month (UTC)'),
    chainOfCommand: z.array(ChainLink).describe('Direct manager first, then upward'),
    terminatedAt: Timestamp.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Agent' });
export type Agent = z.infer<typeof Agent>;

const AdapterType = z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'must be an adapter type key');
const ShortText = z.string().trim().max(200);

export const CreateAgentBody = z.strictObject({
  name: Name,
  role: ShortText.optional(),
  title: ShortText.optional(),
  reportsTo: Id.nullable().optional(),
  capabilities: LongText.optional(),
  adapterType: AdapterType,
  adapterConfig: z.record(z.string(), z.unknown()).optional(),
  budgetMonthlyCents: Cents.optional(),
  urlKey: UrlKey.optional(),
});
export type CreateAgentInput = z.infer<typeof CreateAgentBody>;

export const PatchAgentBody = z.strictObject({
  name: Name.optional(),
  role: ShortText.optional(),
  title: ShortText.optional(),
  reportsTo: Id.nullable().optional(),
  capabilities: LongText.optional(),
  adapterType: AdapterType.optional(),
  adapterConfig: z.record(z.string(), z.unknown()).optional().describe('Replaces the whole configuration'),
  budgetMonthlyCents: Cents.optional(),
  urlKey: UrlKey.optional(),
});
export type PatchAgentInput = z.infer<typeof PatchAgentBody>;

export const AgentIdParams = z.strictObject({ agentId: Id });

export const AgentKey = z
  .object({
    id: Id,
    agentId: Id,
    name: z.string(),
    prefix: z.string().describe('First characters of the key, to tell keys apart'),
    createdAt: Timestamp,
    lastUsedAt: Timestamp.nullable(),
    revokedAt: Timestamp.nullable(),
  })
  .meta({ id: 'AgentKey' });
export type AgentKey = z.infer<typeof AgentKey>;

export const CreatedAgentKey = AgentKey.extend({
  key: z.string().describe('The full key. Shown only in this response; only a hash is stored.'),
}).meta({ id: 'CreatedAgentKey' });

export const CreateKeyBody = z.strictObject({ name: z.string().trim().max(100).optional() }).nullish();

export const ConfigRevision = z
  .object({
    id: Id,
    agentId: Id,
    revisionNumber: z.int(),
    adapterType: z.string(),
    adapterConfig: z.record(z.string(), z.unknown()).describe('Whole for the board and the agent itself; another agent sees every env and headers value as {"type":"hidden"} and every secret reference as {"type":"secret","name":…}'),
    reason: z.enum(['create', 'update', 'rollback']),
    rolledBackFromRevisionId: Id.nullable(),
    actorType: z.enum(['board', 'agent', 'system']),
    actorId: Id.nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: 'AgentConfigRevision' });
export type ConfigRevision = z.infer<typeof ConfigRevision>;

export interface OrgNode {
  id: string;
  name: string;
  urlKey: string;
  role: string;
  title: string;
  status: z.infer<typeof AgentStatus>;
  adapterType: string;
  reports: OrgNode[];
}

export const OrgNode: z.ZodType<OrgNode> = z
  .object({
    id: Id,
    name: z.string(),
    urlKey: z.string(),
    role: z.string(),
    title: z.string(),
    status: AgentStatus,
    adapterType: z.string(),
    get reports() {
      return z.array(OrgNode);
    },
  })
  .meta({ id: 'OrgNode' });

export const OrgQuery = z.strictObject({ includeTerminated: z.enum(['true', 'false']).optional() });

export const AdapterModel = z.object({ id: z.string(), label: z.string() }).meta({ id: 'AdapterModel' });
