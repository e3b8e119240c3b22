import type { Issue, IssueWithLinks } from './contract.js';
import { relationsOf } from './blockers.js';
import { labelIdsOf } from '../labels/service.js';
import type { Queryable } from '../context.js';

/** Adds labels and both directions of dependencies, loaded for the whole page at once. */
export function withLinks(db: Queryable, items: Issue[]): IssueWithLinks[] {
  const ids = items.map((i) => i.id);
  const rel = relationsOf(db, ids);
  const lab = labelIdsOf(db, ids);
  return items.map((i) => ({ ...i, labelIds: lab.get(i.id) ?? [], ...(rel.get(i.id) ?? { blockedBy: [], blocks: [], openBlockerIds: [] }) }));
}

export const withLinksOne = (db: Queryable, item: Issue): IssueWithLinks => withLinks(db, [item])[0]!;
