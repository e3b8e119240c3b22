import { count, eq } from 'drizzle-orm';
import { agents } from '../agents/schema.js';
import { projects } from '../projects/schema.js';
import { FIXED_LIMITS } from './settings.js';
import { conflict } from '../kernel/errors.js';
import type { Queryable } from '../context.js';

/**
 * Records a company holds a bounded number of: the spec answers the agent list, the org chart and
 * the spend per agent or project whole, with no paging, so their size is bounded where the records
 * are made. Terminated agents count: they stay in all of those answers.
 */
const HELD = {
  agents: { table: agents, companyId: agents.companyId, max: FIXED_LIMITS.agentsPerCompany, code: 'agent_limit_reached', note: ', terminated ones included' },
  projects: { table: projects, companyId: projects.companyId, max: FIXED_LIMITS.projectsPerCompany, code: 'project_limit_reached', note: '' },
} as const;

/** Refuses one more agent or project of a company that holds the most it may (409). */
export function assertRoomFor(db: Queryable, what: keyof typeof HELD, companyId: string): void {
  const { table, companyId: column, max, code, note } = HELD[what];
  const held = db.select({ n: count() }).from(table).where(eq(column, companyId)).get()!.n;
  if (held >= max) throw conflict(code, `A company holds at most ${max} ${what}${note}; this one is full`, { max });
}
