import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { issueComments, issueMentions, issues, type IssueCommentRow, type IssueRow } from './schema.js';
import { agents } from '../agents/schema.js';
import type { Comment } from './contract.js';
import { findMentions } from './mentions.js';
import { requestWake } from './wake.js';
import { requireIssue } from './lookup.js';
import { supersedeForBoardComment } from './interactions/supersede.js';
import { newId } from '../kernel/ids.js';
import type { Actor } from '../kernel/actor.js';
import { recordActivity } from '../activity/service.js';
import { GROUPED, inTransaction, type CoreContext, type Queryable, type Tx } from '../context.js';
import { prepared } from '../db/prepared.js';
import { badRequest } from '../kernel/errors.js';
import { limitsOf } from '../limits/service.js';

const toComment = (row: IssueCommentRow, mentioned: string[]): Comment => ({
  id: row.id,
  issueId: row.issueId,
  authorType: row.authorType,
  authorAgentId: row.authorAgentId,
  body: row.body,
  mentionedAgentIds: mentioned,
  createdAt: row.createdAt,
});

// Run by every comment: built once per connection (db/prepared.ts), every value a placeholder.
const p = sql.placeholder;
const insertCommentRow = (db: Queryable) =>
  prepared(db, 'comments.insert', (d) =>
    d
      .insert(issueComments)
      .values({ id: p('id'), companyId: p('companyId'), issueId: p('issueId'), authorType: p('authorType'), authorAgentId: p('authorAgentId'), body: p('body'), createdAt: p('createdAt') })
      .returning()
      .prepare(),
  );
const mentionCandidates = (db: Queryable) =>
  prepared(db, 'comments.mentionCandidates', (d) =>
    d
      .select({ id: agents.id, name: agents.name, urlKey: agents.urlKey })
      .from(agents)
      .where(and(eq(agents.companyId, p('companyId')), ne(agents.status, 'terminated')))
      .prepare(),
  );
// Only the activity time changes (no trigger writes to issues), so the row after it is the row
// before with that time: nothing to read back.
const touchIssueRow = (db: Queryable) =>
  prepared(db, 'comments.touchIssue', (d) => d.update(issues).set({ lastActivityAt: sql`${p('at')}` }).where(eq(issues.id, p('issueId'))).prepare());

/**
 * Adds a comment inside `tx`: records `@mentions` of living agents of the company and a wake
 * request for each (never for the author itself), lets a board comment supersede pending
 * confirmations that ask for it, and bumps the issue's activity time.
 */
export function insertComment(tx: Tx, at: string, actor: Actor, issue: IssueRow, body: string): { comment: Comment; issue: IssueRow } {
  const row = insertCommentRow(tx).get({
    id: newId(),
    companyId: issue.companyId,
    issueId: issue.id,
    authorType: actor.kind,
    authorAgentId: actor.kind === 'agent' ? actor.agentId : null,
    body,
    createdAt: at,
  })!;
  // A mention needs an `@`: without one, neither the company's agents nor their patterns are read.
  const candidates = body.includes('@') ? mentionCandidates(tx).all({ companyId: issue.companyId }) : [];
  const mentioned = findMentions(body, candidates).filter((id) => !(actor.kind === 'agent' && actor.agentId === id));
  for (const agentId of mentioned) {
    tx.insert(issueMentions).values({ id: newId(), commentId: row.id, issueId: issue.id, agentId, createdAt: at }).run();
    requestWake(tx, at, { companyId: issue.companyId, agentId, reason: 'mention', issueId: issue.id, commentId: row.id });
  }
  if (actor.kind === 'board') supersedeForBoardComment(tx, at, issue.id, row.id);
  touchIssueRow(tx).run({ at, issueId: issue.id });
  recordActivity(tx, at, actor, {
    companyId: issue.companyId,
    action: 'issue.commented',
    entityType: 'issue',
    entityId: issue.id,
    summary: `Comment on ${issue.identifier}${mentioned.length ? ` mentioning ${mentioned.length} agent(s)` : ''}`,
    details: { commentId: row.id, mentionedAgentIds: mentioned },
  });
  return { comment: toComment(row, mentioned), issue: { ...issue, lastActivityAt: at } };
}

/**
 * Mentions of the given comments (a page holds at most 500, well under SQLite's bound-variable
 * limit; a whole issue's comments once exceeded it, found by the scale benchmark).
 */
function mentionsOf(db: Queryable, commentIds: string[]): Map<string, string[]> {
  const map = new Map<string, string[]>();
  if (commentIds.length === 0) return map;
  const rows = db.select({ commentId: issueMentions.commentId, agentId: issueMentions.agentId }).from(issueMentions).where(inArray(issueMentions.commentId, commentIds)).all();
  for (const m of rows) map.set(m.commentId, [...(map.get(m.commentId) ?? []), m.agentId]);
  return map;
}

/** An opaque position in an issue's thread: the creation time and rowid of the last comment seen. */
const encodeCursor = (createdAt: string, rowid: number) => Buffer.from(`${createdAt}|${rowid}`, 'utf8').toString('base64url');

function decodeCursor(cursor: string): { createdAt: string; rowid: number } {
  const [createdAt, rowid] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!createdAt || !rowid || !/^\d+$/.test(rowid) || Number.isNaN(Date.parse(createdAt))) throw badRequest('invalid_cursor', 'query.after: not a cursor from this list');
  return { createdAt, rowid: Number(rowid) };
}

export interface CommentPage {
  items: Comment[];
  /** Where the next page starts; null on the last page. */
  nextCursor: string | null;
}

export function createCommentsService(ctx: CoreContext) {
  return {
    /**
     * One page of the thread, oldest first, in a stable order (creation time, then insertion):
     * comments added while a reader pages through land after its cursor, never inside a page read.
     */
    list(actor: Actor, issueRef: string, page: { limit: number; after?: string | undefined }): CommentPage {
      const issue = requireIssue(ctx.db, actor, issueRef);
      const where = [eq(issueComments.issueId, issue.id)];
      if (page.after !== undefined) {
        const c = decodeCursor(page.after);
        where.push(sql`(${issueComments.createdAt} > ${c.createdAt} OR (${issueComments.createdAt} = ${c.createdAt} AND ${issueComments}.rowid > ${c.rowid}))`);
      }
      const rows = ctx.db
        .select({ row: issueComments, rowid: sql<number>`${issueComments}.rowid` })
        .from(issueComments)
        .where(and(...where))
        .orderBy(asc(issueComments.createdAt), sql`${issueComments}.rowid`)
        .limit(page.limit + 1)
        .all();
      const items = rows.slice(0, page.limit);
      const mentions = mentionsOf(ctx.db, items.map((r) => r.row.id));
      const last = items.at(-1);
      return {
        items: items.map((r) => toComment(r.row, mentions.get(r.row.id) ?? [])),
        nextCursor: rows.length > page.limit && last ? encodeCursor(last.row.createdAt, last.rowid) : null,
      };
    },

    create(actor: Actor, issueRef: string, body: string): Comment {
      return limitsOf(ctx).comment(actor, body, () =>
        inTransaction(
          ctx,
          (tx) => {
            const issue = requireIssue(tx, actor, issueRef);
            return insertComment(tx, ctx.clock.now().toISOString(), actor, issue, body).comment;
          },
          GROUPED,
        ),
      );
    },
  };
}
