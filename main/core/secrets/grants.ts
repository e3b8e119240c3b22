import { and, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../context.js';
import type { Actor } from '../kernel/actor.js';
import { ServiceError } from '../kernel/errors.js';
import { agents } from '../agents/schema.js';
import { findSecretRefs, SecretRef } from './refs.js';
import { secrets } from './schema.js';

/**
 * Secrets stay with whom the board gave them to. The board grants a secret to an agent by putting
 * a reference to it into that agent's saved adapter configuration, and nowhere else:
 *
 * - an agent may make the server resolve only references its own saved configuration holds (same
 *   secret, same version: `latest` grants the newest value, a pinned version grants that value);
 * - an agent sees a colleague's configuration with every `env` and `headers` value hidden and every
 *   secret reference reduced to the secret's name, so it learns neither values nor reusable ids.
 *
 * Every route where an agent can hand the server a configuration to run (adapter environment
 * tests, hire requests and their resubmissions) calls `assertSecretsGranted`; every presenter of an
 * agent's configuration (agents, config revisions, hire approvals) calls `configSeenBy`.
 */

const grantKey = (ref: SecretRef): string => `${ref.secretId}:${ref.version}`;

/** The references the board put into the agent's saved configuration. */
export function grantedSecretRefs(db: Queryable, agentId: string): Set<string> {
  const row = db.select({ adapterConfig: agents.adapterConfig }).from(agents).where(eq(agents.id, agentId)).get();
  const keys = new Set<string>();
  for (const { ref } of findSecretRefs(row?.adapterConfig ?? {})) {
    const parsed = SecretRef.safeParse(ref);
    if (parsed.success) keys.add(grantKey(parsed.data));
  }
  return keys;
}

/**
 * 403 `secret_not_granted` when an agent credential sends a configuration referencing a secret
 * (or a version of it) that its own saved configuration does not hold. The board may reference any
 * secret of the company. Malformed references are left to the configuration's validation (400):
 * they can never resolve.
 */
export function assertSecretsGranted(db: Queryable, actor: Actor, config: unknown, base = 'body.adapterConfig'): void {
  if (actor.kind !== 'agent') return;
  const found = findSecretRefs(config).flatMap((f) => {
    const parsed = SecretRef.safeParse(f.ref);
    return parsed.success ? [{ path: f.path, ref: parsed.data }] : [];
  });
  if (found.length === 0) return;
  const granted = grantedSecretRefs(db, actor.agentId);
  const problems = found
    .filter((f) => !granted.has(grantKey(f.ref)))
    .map((f) => ({ location: 'body', path: [base, ...f.path].join('.'), message: 'this secret is not in your own configuration; only the board may grant it' }));
  const first = problems[0];
  if (first) {
    throw new ServiceError(403, 'secret_not_granted', `${first.path}: an agent may use only the secrets the board put into its own configuration`, { problems });
  }
}

/** A hidden plain value, in a colleague's view of a configuration. */
export const HIDDEN_VALUE = { type: 'hidden' } as const;

/** Maps that hold credentials by convention: their plain values are hidden too, not just references. */
const VALUE_MAPS = new Set(['env', 'headers']);

function secretNames(db: Queryable, companyId: string, config: unknown): Map<string, string> {
  const ids = [...new Set(findSecretRefs(config).map((f) => f.ref.secretId).filter((id): id is string => typeof id === 'string'))];
  if (ids.length === 0) return new Map();
  const rows = db
    .select({ id: secrets.id, name: secrets.name })
    .from(secrets)
    .where(and(eq(secrets.companyId, companyId), inArray(secrets.id, ids)))
    .all();
  return new Map(rows.map((r) => [r.id, r.name]));
}

function hide(value: unknown, names: Map<string, string>, inValueMap: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => hide(v, names, false));
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    if (obj.type === 'secret_ref') return { type: 'secret', name: names.get(String(obj.secretId)) ?? 'deleted secret' };
    return Object.fromEntries(
      Object.entries(obj).map(([k, v]) => {
        if (VALUE_MAPS.has(k) && v !== null && typeof v === 'object' && !Array.isArray(v)) {
          return [k, Object.fromEntries(Object.entries(v).map(([name, inner]) => [name, hide(inner, names, true)]))];
        }
        return [k, hide(v, names, false)];
      }),
    );
  }
  return inValueMap ? HIDDEN_VALUE : value;
}

/**
 * The configuration of `ownerAgentId` as `viewer` may see it: whole for the board and for the
 * agent itself; for any other agent, env and header values become `{"type":"hidden"}` and secret
 * references `{"type":"secret","name":…}` (names only: an id could be reused in a hire request).
 */
export function configSeenBy(db: Queryable, viewer: Actor, ownerAgentId: string | null, companyId: string, config: Record<string, unknown>): Record<string, unknown> {
  if (viewer.kind !== 'agent' || viewer.agentId === ownerAgentId) return config;
  return hide(config, secretNames(db, companyId, config), false) as Record<string, unknown>;
}
