import { and, eq, ne, sql } from 'drizzle-orm';
import { keyset, type KeysetPage, type KeysetQuery } from '../db/keyset.js';
import { companies, type CompanyRow } from './schema.js';
import { prepared } from '../db/prepared.js';
import { assets } from '../assets/schema.js';
import type { Company } from './contract.js';
import { newId } from '../kernel/ids.js';
import type { Actor } from '../kernel/actor.js';
import { assertBoard, assertCompanyAccess } from '../kernel/access.js';
import { badRequest, conflict, notFound } from '../kernel/errors.js';
import { recordActivity } from '../activity/service.js';
import { inTransaction, isoNow, type CoreContext, type Queryable } from '../context.js';
import { changedFields } from '../kernel/patch.js';
import { uniqueIssuePrefix } from './issue-prefix.js';
import { deleteCompany } from './delete.js';
import { cancelRuns, reconcileCompanyBudget, type RunCancellation } from '../costs/budget-rules.js';
import type { ActivityKind } from '../kernel/events.js';

export const assetContentUrl = (assetId: string): string => `/api/assets/${assetId}/content`;

export function toCompany(row: CompanyRow): Company {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    status: row.status,
    logoAssetId: row.logoAssetId,
    logoUrl: row.logoAssetId ? assetContentUrl(row.logoAssetId) : null,
    issuePrefix: row.issuePrefix,
    budgetMonthlyCents: row.budgetMonthlyCents,
    defaultAdapterType: row.defaultAdapterType,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Loads a company the actor may see, or throws the same 404 for missing and foreign ones. */
// Every company-scoped route starts here: built once per connection (db/prepared.ts).
const companyById = (db: Queryable) => prepared(db, 'companies.byId', (d) => d.select().from(companies).where(eq(companies.id, sql.placeholder('id'))).prepare());

export function requireCompany(db: Queryable, actor: Actor, companyId: string): CompanyRow {
  assertCompanyAccess(actor, companyId);
  const row = companyById(db).get({ id: companyId });
  if (!row) throw notFound('Company');
  return row;
}

// Most company-scoped routes only need to know the company is there: one column instead of the
// whole row (its fourteen columns cost a company-scoped write about 4 µs more).
const companyStatusById = (db: Queryable) =>
  prepared(db, 'companies.statusById', (d) => d.select({ status: companies.status }).from(companies).where(eq(companies.id, sql.placeholder('id'))).prepare());

/**
 * {@link requireCompany} for callers that do not need the row: the same access check and 404, and
 * the company's status.
 */
export function assertCompany(db: Queryable, actor: Actor, companyId: string): CompanyRow['status'] {
  assertCompanyAccess(actor, companyId);
  const row = companyStatusById(db).get({ id: companyId });
  if (!row) throw notFound('Company');
  return row.status;
}

export interface CompanyPatch {
  name?: string | undefined;
  description?: string | undefined;
  budgetMonthlyCents?: number | undefined;
  logoAssetId?: string | null | undefined;
  defaultAdapterType?: string | null | undefined;
}

/**
 * Company lifecycle (spec 3.1, with our decisions for pause):
 * active --pause--> paused --resume--> active; any --archive--> archived --unarchive--> active.
 * A paused or archived company runs no heartbeats; archived ones are hidden from default lists.
 */
const COMPANY_STATUS_CHANGED = { archive: 'company.archived', unarchive: 'company.unarchived', pause: 'company.paused', resume: 'company.resumed' } as const satisfies Record<string, ActivityKind>;

/** The companies the actor sees: an agent its own only; archived ones only when asked for. */
function visibleTo(actor: Actor, includeArchived: boolean) {
  const filters = [];
  if (actor.kind === 'agent') filters.push(eq(companies.id, actor.companyId));
  if (!includeArchived) filters.push(ne(companies.status, 'archived'));
  return filters;
}

export function createCompaniesService(ctx: CoreContext) {
  const oldestFirst = keyset(companies, companies.createdAt, 'asc');

  function setStatus(actor: Actor, companyId: string, next: CompanyRow['status'], allowedFrom: CompanyRow['status'][], action: 'archive' | 'unarchive' | 'pause' | 'resume') {
    assertBoard(actor, `${action} a company`);
    return inTransaction(ctx, (tx) => {
      const row = requireCompany(tx, actor, companyId);
      if (row.status === next) return toCompany(row);
      if (!allowedFrom.includes(row.status)) {
        throw conflict('invalid_status_transition', `A company that is ${row.status} cannot be ${action}d`, {
          status: row.status,
        });
      }
      const at = isoNow(ctx);
      const updated = tx
        .update(companies)
        .set({ status: next, updatedAt: at })
        .where(eq(companies.id, companyId))
        .returning()
        .get();
      recordActivity(tx, at, actor, {
        companyId,
        action: COMPANY_STATUS_CHANGED[action],
        entityType: 'company',
        entityId: companyId,
        summary: `Company "${row.name}" ${action}d`,
      });
      return toCompany(updated);
    });
  }

  return {
    /** Oldest first. */
    list(actor: Actor, includeArchived: boolean, page: KeysetQuery): KeysetPage<Company> {
      return oldestFirst.pageOf(ctx.db, and(...visibleTo(actor, includeArchived)), page, toCompany);
    },

    /** Every company the actor sees, oldest first, for in-process callers that visit each one (the tray's inbox). */
    all(actor: Actor, includeArchived: boolean): Company[] {
      return ctx.db
        .select()
        .from(companies)
        .where(and(...visibleTo(actor, includeArchived)))
        .orderBy(...oldestFirst.orderBy)
        .all()
        .map(toCompany);
    },

    get(actor: Actor, companyId: string): Company {
      return toCompany(requireCompany(ctx.db, actor, companyId));
    },

    create(actor: Actor, input: { name: string; description?: string | undefined; budgetMonthlyCents?: number | undefined }): Company {
      assertBoard(actor, 'create companies');
      return inTransaction(ctx, (tx) => {
        const at = isoNow(ctx);
        const row = tx
          .insert(companies)
          .values({
            id: newId(),
            name: input.name,
            description: input.description ?? '',
            budgetMonthlyCents: input.budgetMonthlyCents ?? 0,
            issuePrefix: uniqueIssuePrefix(tx, input.name),
            status: 'active',
            createdAt: at,
            updatedAt: at,
          })
          .returning()
          .get();
        recordActivity(tx, at, actor, {
          companyId: row.id,
          action: 'company.created',
          entityType: 'company',
          entityId: row.id,
          summary: `Company "${row.name}" created`,
        });
        return toCompany(row);
      });
    },

    patch(actor: Actor, companyId: string, patch: CompanyPatch): Company {
      assertBoard(actor, 'change a company');
      const cancellations: RunCancellation[] = [];
      const result = inTransaction(ctx, (tx) => {
        const row = requireCompany(tx, actor, companyId);
        if (patch.logoAssetId) {
          const asset = tx.select().from(assets).where(eq(assets.id, patch.logoAssetId)).get();
          if (!asset || asset.companyId !== companyId || asset.kind !== 'logo' || asset.deletedAt) {
            throw badRequest('invalid_logo_asset', 'body.logoAssetId: must be a logo uploaded to this company', {
              problems: [{ location: 'body', path: 'body.logoAssetId', message: 'not a logo of this company' }],
            });
          }
        }
        if (patch.defaultAdapterType && !ctx.adapters.get(patch.defaultAdapterType)) {
          const known = ctx.adapters.list().map((a) => a.type);
          throw badRequest('unknown_adapter_type', `body.defaultAdapterType: unknown adapter type "${patch.defaultAdapterType}"`, {
            problems: [{ location: 'body', path: 'body.defaultAdapterType', message: `must be one of: ${known.join(', ')}` }],
          });
        }
        const changes = changedFields(row, patch);
        const fields = Object.keys(changes);
        if (fields.length === 0) return toCompany(row);
        const at = isoNow(ctx);
        const updated = tx
          .update(companies)
          .set({ ...changes, updatedAt: at })
          .where(eq(companies.id, companyId))
          .returning()
          .get();
        recordActivity(tx, at, actor, {
          companyId,
          action: 'company.updated',
          entityType: 'company',
          entityId: companyId,
          summary: `Company "${updated.name}" updated: ${fields.join(', ')}`,
          details: {
            fields,
            ...(changes.budgetMonthlyCents !== undefined
              ? { budgetMonthlyCents: { from: row.budgetMonthlyCents, to: changes.budgetMonthlyCents } }
              : {}),
          },
        });
        // Lowering the budget to this month's spend or below stops the company like a cost event
        // would; raising it needs nothing, since budgetStop() reads the budget every time.
        if (changes.budgetMonthlyCents !== undefined) {
          cancellations.push(...reconcileCompanyBudget(tx, at, ctx.clock.now(), companyId, row.budgetMonthlyCents));
        }
        return toCompany(updated);
      });
      cancelRuns(ctx, cancellations);
      return result;
    },

    archive: (actor: Actor, id: string) => setStatus(actor, id, 'archived', ['active', 'paused'], 'archive'),
    unarchive: (actor: Actor, id: string) => setStatus(actor, id, 'active', ['archived'], 'unarchive'),
    pause: (actor: Actor, id: string) => setStatus(actor, id, 'paused', ['active'], 'pause'),
    resume: (actor: Actor, id: string) => setStatus(actor, id, 'active', ['paused'], 'resume'),
    delete: (actor: Actor, id: string) => deleteCompany(ctx, actor, id),
  };
}

export type CompaniesService = ReturnType<typeof createCompaniesService>;
