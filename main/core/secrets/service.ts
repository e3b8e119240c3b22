import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { keyset, type KeysetPage, type KeysetQuery } from '../db/keyset.js';
import { secrets, secretVersions, type SecretRow } from './schema.js';
import type { CreateSecretInput, PatchSecretInput, Secret, SystemStatus } from './contract.js';
import { seal, versionAad } from './crypto.js';
import { createKeyring, type ActiveKey } from './keyring.js';
import { agentsUsingSecret } from './refs.js';
import { createSecretResolver } from './resolve.js';
import { newId } from '../kernel/ids.js';
import type { Actor } from '../kernel/actor.js';
import { assertBoard } from '../kernel/access.js';
import { conflict, notFound } from '../kernel/errors.js';
import { recordActivity } from '../activity/service.js';
import { assertCompany } from '../companies/service.js';
import { inTransaction, isoNow, type CoreContext, type Queryable, type Tx } from '../context.js';

/** A live (not deleted) secret. Every secret route is board-only, so no company check is needed here. */
export function requireSecret(db: Queryable, secretId: string): SecretRow {
  const row = db
    .select()
    .from(secrets)
    .where(and(eq(secrets.id, secretId), isNull(secrets.deletedAt)))
    .get();
  if (!row) throw notFound('Secret');
  return row;
}

function assertNameFree(db: Queryable, companyId: string, name: string): void {
  const taken = db
    .select({ id: secrets.id })
    .from(secrets)
    .where(and(eq(secrets.companyId, companyId), eq(secrets.name, name), isNull(secrets.deletedAt)))
    .get();
  if (taken) throw conflict('secret_name_taken', `This company already has a secret named "${name}"`, { secretId: taken.id });
}

/** Metadata with its version list; one query for all rows. Never a value, never ciphertext. */
function present(db: Queryable, rows: SecretRow[]): Secret[] {
  if (rows.length === 0) return [];
  const versions = db
    .select({ secretId: secretVersions.secretId, version: secretVersions.version, createdAt: secretVersions.createdAt })
    .from(secretVersions)
    .where(inArray(secretVersions.secretId, rows.map((r) => r.id)))
    .orderBy(asc(secretVersions.version))
    .all();
  return rows.map((r) => ({
    id: r.id,
    companyId: r.companyId,
    name: r.name,
    description: r.description,
    latestVersion: r.latestVersion,
    versions: versions.filter((v) => v.secretId === r.id).map((v) => ({ version: v.version, createdAt: v.createdAt })),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  }));
}
const presentOne = (db: Queryable, row: SecretRow): Secret => present(db, [row])[0]!;

/** Seals one version; the AAD binds it to this secret id and version number. */
function insertVersion(tx: Tx, key: ActiveKey, actor: Actor, secretId: string, version: number, value: string, at: string): void {
  const plain = Buffer.from(value, 'utf8');
  const sealed = seal(key.key, plain, versionAad(secretId, version));
  plain.fill(0);
  tx.insert(secretVersions)
    .values({ id: newId(), secretId, version, ...sealed, keyGeneration: key.generation, createdByType: actor.kind, createdAt: at })
    .run();
}

/**
 * Company secrets (spec 2.8, 4.6): write-only values, AES-256-GCM per version, board only.
 * Values never leave this module except through the resolver (resolve.ts), which the heartbeat
 * engine and the CRM call in-process; activity records name the secret and version only.
 */
export function createSecretsService(ctx: CoreContext) {
  const keyring = createKeyring(ctx.db, ctx.keyProvider, ctx.logger);
  const what = 'manage secrets';

  return {
    keyring,
    /** Core start: reconcile the key store with the database (finishes an interrupted rotation). */
    start: () => keyring.start(),

    status(actor: Actor): SystemStatus {
      assertBoard(actor, 'read the system status');
      const p = ctx.keyProvider;
      return { keyProvider: { kind: p.kind, description: p.describe(), warning: p.warning } };
    },

    /** By name (unique among live secrets of the company). */
    list(actor: Actor, companyId: string, page: KeysetQuery): KeysetPage<Secret> {
      assertBoard(actor, what);
      assertCompany(ctx.db, actor, companyId);
      const rowsOfPage = keyset(secrets, secrets.name, 'asc').pageOf(ctx.db, and(eq(secrets.companyId, companyId), isNull(secrets.deletedAt)), page, (r) => r);
      return { ...rowsOfPage, items: present(ctx.db, rowsOfPage.items) };
    },

    get(actor: Actor, secretId: string): Secret {
      assertBoard(actor, what);
      return presentOne(ctx.db, requireSecret(ctx.db, secretId));
    },

    async create(actor: Actor, companyId: string, input: CreateSecretInput): Promise<Secret> {
      assertBoard(actor, what);
      // Checked before the key is loaded: a refused request must not create the master key.
      assertCompany(ctx.db, actor, companyId);
      assertNameFree(ctx.db, companyId, input.name);
      const key = await keyring.forWrite();
      return inTransaction(ctx, (tx) => {
        assertCompany(tx, actor, companyId);
        assertNameFree(tx, companyId, input.name);
        keyring.assertCurrent(tx, key);
        const at = isoNow(ctx);
        const row = tx
          .insert(secrets)
          .values({ id: newId(), companyId, name: input.name, description: input.description ?? '', latestVersion: 1, createdAt: at, updatedAt: at })
          .returning()
          .get();
        insertVersion(tx, key, actor, row.id, 1, input.value, at);
        recordActivity(tx, at, actor, {
          companyId,
          action: 'secret.created',
          entityType: 'secret',
          entityId: row.id,
          summary: `Secret "${row.name}" created (version 1)`,
          details: { name: row.name, version: 1 },
        });
        return presentOne(tx, row);
      });
    },

    /** A new `value` is a new version (old ones stay readable by number); `description` alone is metadata. */
    async patch(actor: Actor, secretId: string, input: PatchSecretInput): Promise<Secret> {
      assertBoard(actor, what);
      requireSecret(ctx.db, secretId);
      const key = input.value !== undefined ? await keyring.forWrite() : null;
      return inTransaction(ctx, (tx) => {
        const row = requireSecret(tx, secretId);
        const fields: string[] = [];
        const changes: Partial<SecretRow> = {};
        const at = isoNow(ctx);
        if (input.description !== undefined && input.description !== row.description) {
          changes.description = input.description;
          fields.push('description');
        }
        if (key && input.value !== undefined) {
          keyring.assertCurrent(tx, key);
          changes.latestVersion = row.latestVersion + 1;
          insertVersion(tx, key, actor, secretId, changes.latestVersion, input.value, at);
          fields.unshift('value');
        }
        if (fields.length === 0) return presentOne(tx, row);
        const updated = tx.update(secrets).set({ ...changes, updatedAt: at }).where(eq(secrets.id, secretId)).returning().get();
        const versionNote = changes.latestVersion ? `new version ${changes.latestVersion}` : '';
        recordActivity(tx, at, actor, {
          companyId: row.companyId,
          action: 'secret.updated',
          entityType: 'secret',
          entityId: secretId,
          summary: `Secret "${row.name}" updated: ${[versionNote, fields.includes('description') ? 'description' : ''].filter(Boolean).join(', ')}`,
          details: { name: row.name, fields, ...(changes.latestVersion ? { version: changes.latestVersion } : {}) },
        });
        return presentOne(tx, updated);
      });
    },

    /**
     * Soft delete: the name becomes free again; versions stay (encrypted) for the record. Refused
     * while a living agent references the secret, since its next heartbeat could not start.
     */
    remove(actor: Actor, secretId: string): void {
      assertBoard(actor, what);
      inTransaction(ctx, (tx) => {
        const row = requireSecret(tx, secretId);
        const agentIds = agentsUsingSecret(tx, row.companyId, secretId);
        if (agentIds.length > 0) {
          throw conflict(
            'secret_in_use',
            `Secret "${row.name}" is referenced by the adapter configuration of ${agentIds.length} agent(s); remove those references first`,
            { agentIds },
          );
        }
        const at = isoNow(ctx);
        tx.update(secrets).set({ deletedAt: at, updatedAt: at }).where(eq(secrets.id, secretId)).run();
        recordActivity(tx, at, actor, {
          companyId: row.companyId,
          action: 'secret.deleted',
          entityType: 'secret',
          entityId: secretId,
          summary: `Secret "${row.name}" deleted`,
          details: { name: row.name },
        });
      });
    },

    ...createSecretResolver(ctx, keyring),
  };
}

export type SecretsService = ReturnType<typeof createSecretsService>;
