import { and, eq, ne, sql } from 'drizzle-orm';
import { agents } from './schema.js';
import type { Queryable } from '../context.js';
import { conflict } from '../kernel/errors.js';

/** A shortname from a display name: "Ada Lovelace (CEO)" -> "ada-lovelace-ceo". */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 56)
    .replace(/-+$/, '');
  if (!slug || /^[0-9a-f]{8}-[0-9a-f]{4}-/.test(slug)) return `agent${slug ? '-' + slug : ''}`.slice(0, 56).replace(/-+$/, '');
  return slug;
}

/** The first free shortname for `name` in the company: slug, slug-2, slug-3, ... */
export function uniqueUrlKey(db: Queryable, companyId: string, name: string): string {
  const base = slugify(name);
  const taken = new Set(
    db
      .select({ k: agents.urlKey })
      .from(agents)
      .where(and(eq(agents.companyId, companyId), sql`${agents.urlKey} = ${base} OR ${agents.urlKey} LIKE ${base + '-%'}`))
      .all()
      .map((r) => r.k),
  );
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}

export function assertUrlKeyFree(db: Queryable, companyId: string, urlKey: string, exceptAgentId?: string): void {
  const row = db
    .select({ id: agents.id })
    .from(agents)
    .where(and(eq(agents.companyId, companyId), eq(agents.urlKey, urlKey)))
    .get();
  if (row && row.id !== exceptAgentId) throw conflict('url_key_taken', `Another agent of this company already uses the shortname "${urlKey}"`);
}

/** Mentions address agents by name, so living agents of one company never share a name. */
export function assertNameFree(db: Queryable, companyId: string, name: string, exceptAgentId?: string): void {
  const row = db
    .select({ id: agents.id })
    .from(agents)
    .where(and(eq(agents.companyId, companyId), sql`lower(${agents.name}) = lower(${name})`, ne(agents.status, 'terminated')))
    .get();
  if (row && row.id !== exceptAgentId) throw conflict('agent_name_taken', `Another agent of this company is already named "${name}"`);
}
