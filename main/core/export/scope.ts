import type Database from 'better-sqlite3';

/**
 * Which rows belong to a company, discovered from the live schema rather than listed by hand, so a
 * table added later (CRM, plugins) is exported without anyone remembering to add it here:
 * - `companies`: the row itself;
 * - every table with a `company_id` column: its rows of the company;
 * - every other table with a foreign key to a table already in scope: its rows whose parent is in
 *   scope (repeated until nothing changes, so grandchildren are found too).
 * What is left holds nothing of a company (instance settings, the master key's canary) and must be
 * listed in GLOBAL_TABLES: the export test fails on a table that is neither, forcing a decision.
 */

/** Tables of the instance, not of any company. */
export const GLOBAL_TABLES: Readonly<Record<string, string>> = {
  __drizzle_migrations: 'the schema version of this database',
  master_key_state: 'the canary of this instance\'s master key',
  instance_settings: 'settings of this instance (run cap, retention)',
  board_sessions: 'the board\'s browser sign-ins on this instance',
  // The full-text index and FTS5's own shadow tables: derived, rebuilt by triggers as rows arrive.
  search_fts: 'the full-text search index (derived from issues and comments)',
  search_fts_config: 'FTS5 shadow table of the search index',
  search_fts_content: 'FTS5 shadow table of the search index',
  search_fts_data: 'FTS5 shadow table of the search index',
  search_fts_docsize: 'FTS5 shadow table of the search index',
  search_fts_idx: 'FTS5 shadow table of the search index',
};

/** Company tables deliberately left out of an export, with the reason shown in the manifest. */
export const EXCLUDED_TABLES: Readonly<Record<string, string>> = {
  secret_versions: 'secret values never leave the instance: they are sealed with its master key; set them again after import',
  agent_api_keys: 'agent credentials are not moved between instances: create new keys after import',
  issue_workspaces: 'an issue workspace is a clone on this machine: an imported issue gets a new one at its next run',
  search_docs: 'the search index is derived: the import\'s own inserts of issues and comments rebuild it',
  spend_rollups: 'monthly spend totals are derived: recomputed from the imported cost events',
  issue_blocked_counts: 'the count of blocked issues is derived: kept by triggers as the imported issues arrive',
};

export interface ScopedTable {
  name: string;
  /** SQL condition selecting the company's rows; `?` placeholders all take the company id. */
  where: string;
  params: number;
  columns: { name: string; type: string; notNull: boolean; hasDefault: boolean; pk: number }[];
  /** An INTEGER PRIMARY KEY (a rowid alias such as activity.seq): assigned anew on import. */
  rowidColumn: string | null;
}

export interface CompanyScope {
  tables: ScopedTable[];
  /** Every table holding rows of a company, excluded ones too, parents before the children found through them. */
  all: { name: string; where: string; params: number }[];
  excluded: string[];
  global: string[];
  /** Tables neither scoped nor known global: a schema change this module has not been told about. */
  unclassified: string[];
}

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

interface TableInfo {
  name: string;
  columns: ScopedTable['columns'];
  fks: { from: string; table: string; to: string }[];
}

function tableInfo(sqlite: Database.Database, name: string): TableInfo {
  const cols = sqlite.prepare(`PRAGMA table_info(${q(name)})`).all() as { name: string; type: string; notnull: number; dflt_value: unknown; pk: number }[];
  const fks = sqlite.prepare(`PRAGMA foreign_key_list(${q(name)})`).all() as { from: string; table: string; to: string }[];
  return {
    name,
    columns: cols.map((c) => ({ name: c.name, type: c.type.toUpperCase(), notNull: c.notnull === 1, hasDefault: c.dflt_value !== null, pk: c.pk })),
    fks: fks.map((f) => ({ from: f.from, table: f.table, to: f.to })),
  };
}

export function listTables(sqlite: Database.Database): string[] {
  return (sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
}

export function discoverScope(sqlite: Database.Database): CompanyScope {
  const infos = new Map(listTables(sqlite).map((n) => [n, tableInfo(sqlite, n)]));
  const scoped = new Map<string, { where: string; params: number }>();
  const companies = infos.get('companies');
  if (!companies) throw new Error('no companies table: not a Headcount database');
  scoped.set('companies', { where: 'id = ?', params: 1 });
  for (const info of infos.values()) {
    if (info.name !== 'companies' && info.columns.some((c) => c.name === 'company_id')) scoped.set(info.name, { where: 'company_id = ?', params: 1 });
  }
  // Children through foreign keys, until a pass adds nothing.
  for (let changed = true; changed; ) {
    changed = false;
    for (const info of infos.values()) {
      if (scoped.has(info.name) || info.name in GLOBAL_TABLES) continue;
      const links = info.fks.filter((f) => scoped.has(f.table) && f.table !== info.name);
      if (links.length === 0) continue;
      const parts = links.map((f) => {
        const parent = scoped.get(f.table)!;
        return { sql: `${q(f.from)} IN (SELECT ${q(f.to)} FROM ${q(f.table)} WHERE ${parent.where})`, params: parent.params };
      });
      scoped.set(info.name, { where: parts.map((p) => `(${p.sql})`).join(' OR '), params: parts.reduce((n, p) => n + p.params, 0) });
      changed = true;
    }
  }
  const tables: ScopedTable[] = [];
  const excluded: string[] = [];
  for (const [name, s] of scoped) {
    if (name in EXCLUDED_TABLES) {
      excluded.push(name);
      continue;
    }
    const info = infos.get(name)!;
    const pkCols = info.columns.filter((c) => c.pk > 0);
    const rowidColumn = pkCols.length === 1 && pkCols[0]!.type === 'INTEGER' ? pkCols[0]!.name : null;
    tables.push({ name, where: s.where, params: s.params, columns: info.columns, rowidColumn });
  }
  const global = [...infos.keys()].filter((n) => !scoped.has(n) && n in GLOBAL_TABLES);
  const unclassified = [...infos.keys()].filter((n) => !scoped.has(n) && !(n in GLOBAL_TABLES));
  const all = [...scoped].map(([name, s]) => ({ name, where: s.where, params: s.params }));
  return { tables, all, excluded, global, unclassified };
}

/** The SELECT of one scoped table's rows, in insertion order (rowid), for the company. */
export function selectRows(sqlite: Database.Database, t: ScopedTable, companyId: string): IterableIterator<Record<string, unknown>> {
  const order = t.rowidColumn ? q(t.rowidColumn) : 'rowid';
  let stmt: Database.Statement;
  try {
    stmt = sqlite.prepare(`SELECT * FROM ${q(t.name)} WHERE ${t.where} ORDER BY ${order}`);
  } catch {
    // WITHOUT ROWID tables have no rowid to order by; their primary key order is stable anyway.
    stmt = sqlite.prepare(`SELECT * FROM ${q(t.name)} WHERE ${t.where}`);
  }
  return stmt.iterate(...Array<string>(t.params).fill(companyId)) as IterableIterator<Record<string, unknown>>;
}

export const quoteIdent = q;

/** The better-sqlite3 connection under a drizzle handle (drizzle sets `$client`; its Db type omits it). */
export function rawSqlite(db: object): Database.Database {
  const client = (db as { $client?: Database.Database }).$client;
  if (!client) throw new Error('not a better-sqlite3 drizzle handle');
  return client;
}
