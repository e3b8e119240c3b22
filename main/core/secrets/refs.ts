import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import { SecretRef } from '../../../adapters/config-values.js';
import type { Queryable } from '../context.js';
import { badRequest } from '../kernel/errors.js';
import type { FieldProblem } from '../kernel/error-contract.js';
import { agents } from '../agents/schema.js';
import { secrets, secretVersions } from './schema.js';

export { SecretRef };

export interface FoundRef {
  /** Path inside the walked value, e.g. ['env', 'OPENAI_API_KEY']. */
  path: string[];
  ref: Record<string, unknown>;
}

/**
 * Every `{type: "secret_ref"}` object anywhere in a value (env values, http headers, whatever an
 * adapter schema nests), so no adapter can carry a reference this module never checked.
 */
export function findSecretRefs(value: unknown, path: string[] = []): FoundRef[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => findSecretRefs(v, [...path, String(i)]));
  if (value === null || typeof value !== 'object') return [];
  const obj = value as Record<string, unknown>;
  if (obj.type === 'secret_ref') return [{ path, ref: obj }];
  return Object.entries(obj).flatMap(([k, v]) => findSecretRefs(v, [...path, k]));
}

/** Why `ref` does not resolve to a live secret of `companyId`, or null when it does. */
export function secretRefProblem(db: Queryable, companyId: string, ref: unknown): string | null {
  const parsed = SecretRef.safeParse(ref);
  if (!parsed.success) return 'must be {"type": "secret_ref", "secretId": <uuid>, "version": "latest" | <number>}';
  const { secretId, version } = parsed.data;
  // Another company's secret gets the same answer as a missing one: ids cannot be probed.
  const secret = db
    .select({ name: secrets.name, latestVersion: secrets.latestVersion })
    .from(secrets)
    .where(and(eq(secrets.id, secretId), eq(secrets.companyId, companyId), isNull(secrets.deletedAt)))
    .get();
  if (!secret) return `secret ${secretId} does not exist in this company`;
  if (version === 'latest') return null;
  const found = db
    .select({ version: secretVersions.version })
    .from(secretVersions)
    .where(and(eq(secretVersions.secretId, secretId), eq(secretVersions.version, version)))
    .get();
  return found ? null : `secret "${secret.name}" has no version ${version} (latest is ${secret.latestVersion})`;
}

/**
 * Checks every secret reference of an agent's adapterConfig before it is saved: each must name a
 * live secret of the agent's company and `latest` or an existing version. 400 `invalid_secret_ref`
 * listing every bad field (`body.adapterConfig.env.FOO`).
 */
export function assertSecretRefs(db: Queryable, companyId: string, config: unknown, base = 'body.adapterConfig'): void {
  const problems: FieldProblem[] = [];
  for (const { path, ref } of findSecretRefs(config)) {
    const message = secretRefProblem(db, companyId, ref);
    if (message) problems.push({ location: 'body', path: [base, ...path].join('.'), message });
  }
  const first = problems[0];
  if (first) throw badRequest('invalid_secret_ref', `${first.path}: ${first.message}`, { problems });
}

/** Ids of the company's non-terminated agents whose adapterConfig references the secret. */
export function agentsUsingSecret(db: Queryable, companyId: string, secretId: string): string[] {
  const rows = db
    .select({ id: agents.id, adapterConfig: agents.adapterConfig })
    .from(agents)
    // The text match only narrows the scan; the structural check below decides.
    .where(and(eq(agents.companyId, companyId), ne(agents.status, 'terminated'), sql`instr(${agents.adapterConfig}, ${secretId}) > 0`))
    .all();
  return rows.filter((r) => findSecretRefs(r.adapterConfig).some((f) => f.ref.secretId === secretId)).map((r) => r.id);
}

// ---- The CRM string form (spec 2.8): secret://<secretId>:<version>, version `latest` or a number.

const URI = /^secret:\/\/([^:/]+):(latest|[1-9][0-9]{0,9})$/;
const MAX_VERSION = 2 ** 31 - 1;

/** Parses `secret://<uuid>:<latest|n>`; null when the text is not exactly that. */
export function parseSecretUri(text: string): SecretRef | null {
  const m = URI.exec(text);
  if (!m) return null;
  const id = z.uuid().safeParse(m[1]);
  if (!id.success) return null;
  const version = m[2] === 'latest' ? 'latest' : Number(m[2]);
  if (version !== 'latest' && version > MAX_VERSION) return null;
  return { type: 'secret_ref', secretId: id.data, version };
}

export const formatSecretUri = (ref: Pick<SecretRef, 'secretId' | 'version'>): string => `secret://${ref.secretId}:${ref.version}`;

/** Shape-only check, for request schemas (the CRM outbox `secretRef` field). */
export const SecretUri = z
  .string()
  .max(200)
  .refine((s) => parseSecretUri(s) !== null, 'must be secret://<secretId>:<version>, version "latest" or a number');

/** Shape and existence: what a CRM route calls before saving an outbox; returns the parsed reference. */
export function assertSecretUri(db: Queryable, companyId: string, text: string, fieldPath: string): SecretRef {
  const ref = parseSecretUri(text);
  const message = ref ? secretRefProblem(db, companyId, ref) : 'must be secret://<secretId>:<version>, version "latest" or a number';
  if (message || !ref) throw badRequest('invalid_secret_ref', `${fieldPath}: ${message}`, { problems: [{ location: 'body', path: fieldPath, message }] });
  return ref;
}
