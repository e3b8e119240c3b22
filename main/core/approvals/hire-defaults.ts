import { and, asc, eq, notInArray, sql } from 'drizzle-orm';
import type { AdapterRegistry } from '../../../adapters/registry.js';
import { agents } from '../agents/schema.js';
import { companies } from '../companies/schema.js';
import { findSecretRefs } from '../secrets/refs.js';
import { badRequest } from '../kernel/errors.js';
import type { Queryable } from '../context.js';

export interface HireAdapter {
  adapterType: string;
  adapterConfig: Record<string, unknown>;
}

/** What only the board may give an agent: its credentials and any loosening of its confinement. */
const NOT_COPIED = new Set(['env', 'headers', 'sandbox', 'inheritEnv']);

/**
 * A configuration to copy into a new hire: everything but its environment, its headers, any other
 * field holding a secret reference, and a colleague's sandbox opt-out or inherited variables. The
 * board grants secrets and loosens confinement itself, by editing the hire.
 */
export function withoutCredentials(config: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(config).filter(([k, v]) => !NOT_COPIED.has(k) && findSecretRefs(v).length === 0));
}

/** The adapter of a living, hired agent of the company: the one named, else the first hired; of one type if given. */
function livingAgentAdapter(db: Queryable, companyId: string, agentId?: string, adapterType?: string): HireAdapter | undefined {
  const row = db
    .select({ adapterType: agents.adapterType, adapterConfig: agents.adapterConfig })
    .from(agents)
    .where(
      and(
        eq(agents.companyId, companyId),
        agentId ? eq(agents.id, agentId) : undefined,
        adapterType ? eq(agents.adapterType, adapterType) : undefined,
        notInArray(agents.status, ['terminated', 'draft']),
      ),
    )
    .orderBy(asc(agents.createdAt), sql`rowid`)
    .limit(1)
    .get();
  return row ? { adapterType: row.adapterType, adapterConfig: withoutCredentials(row.adapterConfig) } : undefined;
}

/** The nearest colleague's adapter (of one type, if given): the manager, the requester, the first hired. */
function nearestColleague(db: Queryable, companyId: string, reportsTo: string | null, requesterId: string | null, adapterType?: string): HireAdapter | undefined {
  return (
    (reportsTo ? livingAgentAdapter(db, companyId, reportsTo, adapterType) : undefined) ??
    (requesterId ? livingAgentAdapter(db, companyId, requesterId, adapterType) : undefined) ??
    livingAgentAdapter(db, companyId, undefined, adapterType)
  );
}

/**
 * The adapter of a hire request that names none (the spec's request has no adapter fields):
 * 1. the company's default adapter (its settings), configured like the nearest colleague using it,
 *    or with no configuration when the adapter needs none;
 * 2. else the nearest colleague's adapter: its manager, else the agent asking for it, else the
 *    company's first hired agent;
 * 3. in a company without agents, the first installed adapter type that runs without
 *    configuration (a local coding CLI found on PATH).
 * Credentials are never copied.
 */
export function defaultHireAdapter(db: Queryable, registry: AdapterRegistry, companyId: string, reportsTo: string | null, requesterId: string | null): HireAdapter {
  const preferredType = db.select({ type: companies.defaultAdapterType }).from(companies).where(eq(companies.id, companyId)).get()?.type;
  const preferred = preferredType ? registry.get(preferredType) : undefined;
  if (preferred) {
    const sameType = nearestColleague(db, companyId, reportsTo, requesterId, preferred.type);
    if (sameType) return sameType;
    if (preferred.configSchema.safeParse({}).success) return { adapterType: preferred.type, adapterConfig: {} };
  }
  const colleague = nearestColleague(db, companyId, reportsTo, requesterId);
  if (colleague && registry.get(colleague.adapterType)) return colleague;
  const standalone = registry.list().find((a) => !a.experimental && a.configSchema.safeParse({}).success);
  if (!standalone) {
    throw badRequest('adapter_required', 'body.adapterType: this company has no agent to copy an adapter from; name one', {
      problems: [{ location: 'body', path: 'body.adapterType', message: 'required when no colleague exists to copy the adapter from' }],
    });
  }
  return { adapterType: standalone.type, adapterConfig: {} };
}
