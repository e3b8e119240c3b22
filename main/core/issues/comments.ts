import { and, asc, eq, ne, sql } from 'drizzle-orm';
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
import { inJsonList, prepared } from '../db/prepared.js';
import { jsonObject } from '../db/json-row.js';
import { jsonArray, withMembers } from '../kernel/json-text.js';
import { badRequest } from '../kernel/errors.js';
import { limitsOf } from '../limits/service.js';

export const toComment = (row: IssueCommentRow, mentioned: string[]): Comment => ({
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
const mentionsOfPage = (db: Queryable) =>
  prepared(db, 'comments.mentionsOfPage', (d) =>
    d.select({ commentId: issueMentions.commentId, agentId: issueMentions.agentId }).from(issueMentions).where(inJsonList(issueMentions.commentId)).prepare(),
  );

function mentionsOf(db: Queryable, commentIds: string[]): Map<string, string[]> {
  const map = new Map<string, string[]>();
  if (commentIds.length === 0) return map;
  for (const m of mentionsOfPage(db).all({ ids: JSON.stringify(commentIds) })) {
    const list = map.get(m.commentId);
    if (list) list.push(m.agentId);
    else map.set(m.commentId, [m.agentId]);
  }
  return map;
}

/**
 * `toComment` as SQLite writes it, but for the mentions, which are appended (db/json-row.ts). Held
 * to `toComment`'s output by test/unit/issues/issue-json.test.ts.
 */
export const COMMENT_JSON = sql<string>`${jsonObject({
  id: issueComments.id,
  issueId: issueComments.issueId,
  authorType: issueComments.authorType,
  authorAgentId: issueComments.authorAgentId,
  body: issueComments.body,
  createdAt: issueComments.createdAt,
})}`;

/** A page of one issue's thread, first or after a cursor: built once per connection (db/prepared.ts). */
const threadPage = (db: Queryable, after: boolean) =>
  prepared(db, `comments.page:${after}`, (d) => {
    const c = issueComments;
    const where = [eq(c.issueId, p('issueId'))];
    if (after) where.push(sql`(${c.createdAt} > ${p('createdAt')} OR (${c.createdAt} = ${p('createdAt')} AND ${c}.rowid > ${p('rowid')}))`);
    return d
      .select({ id: c.id, rowid: sql<number>`${c}.rowid`, json: COMMENT_JSON })
      .from(c)
      .where(and(...where))
      .orderBy(asc(c.createdAt), sql`${c}.rowid`)
      .limit(p('limit'))
      .prepare();
  });

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
      const c = page.after !== undefined ? decodeCursor(page.after) : undefined;
      const rows = threadPage(ctx.db, c !== undefined).all({ issueId: issue.id, createdAt: c?.createdAt, rowid: c?.rowid, limit: page.limit + 1 });
      const items = rows.slice(0, page.limit);
      const mentions = mentionsOf(ctx.db, items.map((r) => r.id));
      const last = rows.length > page.limit ? items.at(-1) : undefined;
      return {
        items: jsonArray<Comment[]>(items.map((r) => withMembers(r.json, `"mentionedAgentIds":${JSON.stringify(mentions.get(r.id) ?? [])}`))),
        // The cursor's time is read back from the last comment's JSON (one row, not a column more per row).
        nextCursor: last ? encodeCursor((JSON.parse(last.json) as Comment).createdAt, last.rowid) : null,
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
