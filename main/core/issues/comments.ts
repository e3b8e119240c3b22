import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { issueComments, issueMentions, issues, type IssueCommentRow, type IssueRow } from './schema.js';
import { agents } from '../agents/schema.js';
import type { Comment } from './contract.js';
import { findMentions } from './mentions.js';
import { requestWake } from './wake.js';
import { requireIssue } from './lookup.js';
import { supersedeForBoardComment } from './interactions/supersede.js';
import { newId } from '../ids.js';
import type { Actor } from '../http/actor.js';
import { recordActivity } from '../activity/service.js';
import { inTransaction, type CoreContext, type Queryable, type Tx } from '../context.js';

const toComment = (row: IssueCommentRow, mentioned: string[]): Comment => ({
  id: row.id,
  issueId: row.issueId,
  authorType: row.authorType,
  authorAgentId: row.authorAgentId,
  body: row.body,
  mentionedAgentIds: mentioned,
  createdAt: row.createdAt,
});

/**
 * Adds a comment inside `tx`: records `@mentions` of living agents of the company and a wake
 * request for each (never for the author itself), lets a board comment supersede pending
 * confirmations that ask for it, and bumps the issue's activity time.
 */
export function insertComment(tx: Tx, at: string, actor: Actor, issue: IssueRow, body: string): { comment: Comment; issue: IssueRow } {
  const row = tx
    .insert(issueComments)
    .values({
      id: newId(),
      companyId: issue.companyId,
      issueId: issue.id,
      authorType: actor.kind,
      authorAgentId: actor.kind === 'agent' ? actor.agentId : null,
      body,
      createdAt: at,
    })
    .returning()
    .get();
  const candidates = tx
    .select({ id: agents.id, name: agents.name, urlKey: agents.urlKey })
    .from(agents)
    .where(and(eq(agents.companyId, issue.companyId), ne(agents.status, 'terminated')))
    .all();
  const mentioned = findMentions(body, candidates).filter((id) => !(actor.kind === 'agent' && actor.agentId === id));
  for (const agentId of mentioned) {
    tx.insert(issueMentions).values({ id: newId(), commentId: row.id, issueId: issue.id, agentId, createdAt: at }).run();
    requestWake(tx, at, { companyId: issue.companyId, agentId, reason: 'mention', issueId: issue.id, commentId: row.id });
  }
  if (actor.kind === 'board') supersedeForBoardComment(tx, at, issue.id, row.id);
  const updated = tx.update(issues).set({ lastActivityAt: at }).where(eq(issues.id, issue.id)).returning().get();
  recordActivity(tx, at, actor, {
    companyId: issue.companyId,
    action: 'issue.commented',
    entityType: 'issue',
    entityId: issue.id,
    summary: `Comment on ${issue.identifier}${mentioned.length ? ` mentioning ${mentioned.length} agent(s)` : ''}`,
    details: { commentId: row.id, mentionedAgentIds: mentioned },
  });
  return { comment: toComment(row, mentioned), issue: updated };
}

/**
 * Mentions of every comment of one issue, by a join on the issue rather than `IN (<comment ids>)`:
 * an issue with more comments than SQLite's 32,766 bound variables failed with "too many SQL
 * variables" (found by the scale benchmark, bench/scale.mjs).
 */
function mentionsOfIssue(db: Queryable, issueId: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  const rows = db
    .select({ commentId: issueMentions.commentId, agentId: issueMentions.agentId })
    .from(issueMentions)
    .innerJoin(issueComments, eq(issueComments.id, issueMentions.commentId))
    .where(eq(issueComments.issueId, issueId))
    .all();
  for (const m of rows) map.set(m.commentId, [...(map.get(m.commentId) ?? []), m.agentId]);
  return map;
}

export function createCommentsService(ctx: CoreContext) {
  return {
    list(actor: Actor, issueRef: string): Comment[] {
      const issue = requireIssue(ctx.db, actor, issueRef);
      const rows = ctx.db.select().from(issueComments).where(eq(issueComments.issueId, issue.id)).orderBy(asc(issueComments.createdAt), sql`rowid`).all();
      const mentions = mentionsOfIssue(ctx.db, issue.id);
      return rows.map((r) => toComment(r, mentions.get(r.id) ?? []));
    },

    create(actor: Actor, issueRef: string, body: string): Comment {
      return inTransaction(ctx, (tx) => {
        const issue = requireIssue(tx, actor, issueRef);
        return insertComment(tx, ctx.clock.now().toISOString(), actor, issue, body).comment;
      });
    },
  };
}
