import { and, eq, isNull } from 'drizzle-orm';
import { secrets, secretVersions } from './schema.js';
import { open, versionAad } from './crypto.js';
import type { Keyring } from './keyring.js';
import { parseSecretUri, SecretRef } from './refs.js';
import type { CoreContext } from '../context.js';
import { badRequest, ServiceError } from '../kernel/errors.js';

export interface ResolvedSecret {
  secretId: string;
  name: string;
  /** The version actually used: `latest` is pinned to the newest version at the moment of resolving. */
  version: number;
  value: string;
}

export interface ResolvedEnv {
  /** Plain values, ready for the child process environment (or for http headers). */
  env: Record<string, string>;
  /** Every secret value injected, distinct, so the run supervisor can redact them from transcripts. */
  secretValues: string[];
  /** Which secret and version each referencing key got, for the run record (no values). */
  refs: { key: string; secretId: string; name: string; version: number }[];
}

/**
 * The one place where secret values are decrypted. The heartbeat engine calls `resolveEnv` just
 * before spawning (so `latest` means the newest version at that heartbeat, spec 9) and the CRM calls
 * `resolveSecretRef` with its `secret://` strings. Errors name the secret and version, never a value.
 */
export function createSecretResolver(ctx: Pick<CoreContext, 'db'>, keyring: Keyring) {
  async function resolveSecretRef(companyId: string, ref: SecretRef | string): Promise<ResolvedSecret> {
    const parsed = typeof ref === 'string' ? parseSecretUri(ref) : SecretRef.safeParse(ref).data;
    if (!parsed) throw badRequest('invalid_secret_ref', 'not a secret reference: expected {"type":"secret_ref",…} or secret://<secretId>:<version>');
    const key = await keyring.forRead();
    // Loaded after the await, so a version created meanwhile is the one `latest` gets.
    const secret = ctx.db
      .select({ name: secrets.name, latestVersion: secrets.latestVersion })
      .from(secrets)
      .where(and(eq(secrets.id, parsed.secretId), eq(secrets.companyId, companyId), isNull(secrets.deletedAt)))
      .get();
    if (!secret) throw badRequest('invalid_secret_ref', `secret ${parsed.secretId} does not exist in this company`);
    const version = parsed.version === 'latest' ? secret.latestVersion : parsed.version;
    const row = ctx.db
      .select()
      .from(secretVersions)
      .where(and(eq(secretVersions.secretId, parsed.secretId), eq(secretVersions.version, version)))
      .get();
    if (!row) throw badRequest('invalid_secret_ref', `secret "${secret.name}" has no version ${version} (latest is ${secret.latestVersion})`);
    if (!key) throw new ServiceError(503, 'master_key_unavailable', 'Secrets exist but no master key state was found');
    keyring.assertCurrent(ctx.db, key, row.keyGeneration);
    let plain: Buffer;
    try {
      plain = open(key.key, row, versionAad(parsed.secretId, version));
    } catch {
      throw new ServiceError(500, 'secret_undecryptable', `Version ${version} of secret "${secret.name}" could not be decrypted (wrong key or altered data)`);
    }
    return { secretId: parsed.secretId, name: secret.name, version, value: plain.toString('utf8') };
  }

  /** Resolves a map whose values are plain strings or secret references (adapterConfig.env, http headers). */
  async function resolveEnv(companyId: string, env: Record<string, unknown> | undefined): Promise<ResolvedEnv> {
    const out: ResolvedEnv = { env: {}, secretValues: [], refs: [] };
    for (const [key, value] of Object.entries(env ?? {})) {
      if (typeof value === 'string') {
        out.env[key] = value;
        continue;
      }
      let resolved: ResolvedSecret;
      try {
        resolved = await resolveSecretRef(companyId, value as SecretRef);
      } catch (err) {
        if (err instanceof ServiceError) throw new ServiceError(err.status, err.code, `env.${key}: ${err.message}`, err.details);
        throw err;
      }
      out.env[key] = resolved.value;
      if (!out.secretValues.includes(resolved.value)) out.secretValues.push(resolved.value);
      out.refs.push({ key, secretId: resolved.secretId, name: resolved.name, version: resolved.version });
    }
    return out;
  }

  return { resolveSecretRef, resolveEnv };
}
