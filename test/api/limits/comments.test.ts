import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentKey } from '../../helpers/core.js';
import { createFakeAgent, eventually, waitForRun } from '../heartbeat/helpers.js';
import { limitHits, setLimits, startLimitsWorld, type LimitsWorld } from './helpers.js';
import { GROUPED, inTransaction } from '../../../main/core/context.js';
import { EventBus } from '../../../main/core/events/bus.js';
import { systemClock } from '../../../main/core/kernel/clock.js';

let w: LimitsWorld | undefined;
afterEach(async () => {
  await w?.t.close();
  w = undefined;
});

const post = (w: LimitsWorld, body: string, token?: string) => w.t.api('POST', `/api/issues/${w.issue.id}/comments`, { body: { body }, ...(token ? { token } : {}) });

describe('the comment size cap', () => {
  it('takes exactly 64 KiB of UTF-8 and refuses one byte more with 413, from the board and agents alike', async () => {
    w = await startLimitsWorld();
    // 3-byte characters: fewer characters than bytes, so the cap is on UTF-8, not on string length.
    const atCap = '€'.repeat(21_845) + 'a'; // 65,535 + 1 = 65,536 bytes
    expect(Buffer.byteLength(atCap)).toBe(65_536);
    expect((await post(w, atCap)).status).toBe(201);
    expect((await post(w, atCap, w.key)).status).toBe(201);
    const over = atCap + 'b';
    const before = w.t.snapshot();
    for (const token of [undefined, w.key]) {
      const res = await post(w, over, token);
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({ code: 'comment_too_large', details: { limit: 'commentMaxBytes', bytes: 65_537, max: 65_536 } });
      expect(res.body.error).toContain('65536');
    }
    // The same cap holds for a comment added through PATCH, and nothing of that PATCH is written.
    const patch = await w.t.api('PATCH', `/api/issues/${w.issue.id}`, { token: w.key, body: { title: 'Renamed', comment: over } });
    expect(patch.status).toBe(413);
    expect((await w.t.api('GET', `/api/issues/${w.issue.id}`)).body.title).not.toBe('Renamed');
    const after = w.t.snapshot();
    expect(after.issue_comments).toBe(before.issue_comments);
    const hits = await limitHits(w.t, w.companyId);
    expect(hits[0]).toMatchObject({ actorType: 'agent', actorId: w.agent.id, entityType: 'agent', entityId: w.agent.id, details: { limit: 'commentMaxBytes' } });
  });
});

describe('the comment rate', () => {
  it('lets an agent post exactly its rate per minute, then answers 429 with Retry-After, across all its keys', async () => {
    w = await startLimitsWorld();
    const limits = await setLimits(w.t, { commentsPerMinute: 5 });
    expect(limits.commentsPerMinute).toBe(5);
    const second = await createAgentKey(w.t, w.agent.id);
    // Five across two keys of the same agent: the rate is the agent's, not the key's.
    for (let i = 0; i < 5; i++) expect((await post(w, `comment ${i}`, i % 2 ? second : w.key)).status).toBe(201);
    const refused = await post(w, 'one too many', second);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'rate_limited', details: { limit: 'commentsPerMinute', max: 5 } });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.body.details.retryAfterSec).toBe(retryAfter);
    // A comment through PATCH counts and is refused the same way; its other changes are not applied.
    const patch = await w.t.api('PATCH', `/api/issues/${w.issue.id}`, { token: w.key, body: { title: 'Renamed', comment: 'more' } });
    expect(patch.status).toBe(429);
    expect(patch.headers.get('retry-after')).toBeTruthy();
    expect((await w.t.api('GET', `/api/issues/${w.issue.id}`)).body.title).not.toBe('Renamed');
    // The board is never rate limited.
    expect((await post(w, 'the board may always answer')).status).toBe(201);
    // One activity entry for the hits of that minute, however many there were.
    await post(w, 'still too many', w.key);
    const hits = await limitHits(w.t, w.companyId);
    expect(hits.filter((h) => h.details.limit === 'commentsPerMinute')).toHaveLength(1);
    expect(hits[0].summary).toContain('Flood hit a limit');
  });
});

describe('comment pagination', () => {
  it('pages the thread oldest first with a stable cursor, and the last page has none', async () => {
    w = await startLimitsWorld();
    const ids: string[] = [];
    for (let i = 0; i < 230; i++) ids.push((await post(w, `comment ${i}`)).body.id);
    const first = await w.t.api('GET', `/api/issues/${w.issue.identifier}/comments`);
    expect(first.status).toBe(200);
    expect(Array.isArray(first.body)).toBe(true);
    expect(first.body.map((c: any) => c.id)).toEqual(ids.slice(0, 100));
    const cursor = first.headers.get('x-next-cursor')!;
    expect(cursor).toBeTruthy();
    expect(first.headers.get('link')).toBe(`</api/issues/${w.issue.identifier}/comments?limit=100&after=${cursor}>; rel="next"`);
    // A comment added while paging lands at the end, not inside a page already defined by the cursor.
    ids.push((await post(w, 'late comment')).body.id);
    const second = await w.t.api('GET', `/api/issues/${w.issue.id}/comments?after=${cursor}&limit=100`);
    expect(second.body.map((c: any) => c.id)).toEqual(ids.slice(100, 200));
    // The same cursor gives the same page again.
    expect((await w.t.api('GET', `/api/issues/${w.issue.id}/comments?after=${cursor}&limit=100`)).body).toEqual(second.body);
    const last = await w.t.api('GET', `/api/issues/${w.issue.id}/comments?after=${second.headers.get('x-next-cursor')}&limit=100`);
    expect(last.body.map((c: any) => c.id)).toEqual(ids.slice(200));
    expect(last.headers.get('x-next-cursor')).toBeNull();
    expect(last.headers.get('link')).toBeNull();
    // Limits: up to 500, nothing above; a forged cursor is a 400.
    expect((await w.t.api('GET', `/api/issues/${w.issue.id}/comments?limit=500`)).body).toHaveLength(231);
    expect((await w.t.api('GET', `/api/issues/${w.issue.id}/comments?limit=501`)).status).toBe(400);
    expect((await w.t.api('GET', `/api/issues/${w.issue.id}/comments?after=bm9wZQ`)).body).toMatchObject({ code: 'invalid_cursor' });
  });
});

describe('a comment lost with its commit group', () => {
  it('does not count against its agent\'s rate', async () => {
    w = await startLimitsWorld();
    const world = w;
    await setLimits(world.t, { commentsPerMinute: 2 });
    const comments = world.t.core.services.comments;
    const create = comments.create.bind(comments);
    // Another member of the comment's commit group defers its foreign keys and breaks one, so the
    // group's COMMIT fails (as in test/api/http/group-commit.test.ts): the comment is not saved.
    comments.create = ((...args: Parameters<typeof create>) => {
      const out = create(...args);
      const sqlite = world.t.core.database.sqlite;
      inTransaction(
        { db: world.t.core.database.db, events: new EventBus(), clock: systemClock },
        () => {
          sqlite.pragma('defer_foreign_keys = ON');
          sqlite.prepare('INSERT INTO issue_labels (company_id, issue_id, label_id, created_at) VALUES (?, ?, ?, ?)').run(world.companyId, world.issue.id, 'no-such-label', new Date().toISOString());
        },
        GROUPED,
      );
      return out;
    }) as typeof comments.create;
    const lost = await post(world, 'never saved', world.key);
    expect(lost.status).toBe(503);
    expect(lost.body).toMatchObject({ code: 'commit_failed' });
    comments.create = create;
    // Both comments of the minute are still the agent's to post; the one after them is not.
    expect((await post(world, 'saved 1', world.key)).status).toBe(201);
    expect((await post(world, 'saved 2', world.key)).status).toBe(201);
    expect((await post(world, 'one too many', world.key)).status).toBe(429);
    const thread = await world.t.api('GET', `/api/issues/${world.issue.id}/comments`);
    expect(thread.body.map((c: { body: string }) => c.body)).toEqual(['saved 1', 'saved 2']);
  });
});

describe('a run token', () => {
  it('shares its agent’s comment rate with the agent’s keys', async () => {
    w = await startLimitsWorld();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hc-limits-token-'));
    const tokenFile = path.join(dir, 'token');
    // The agent writes into its own working directory: the sandbox gives it a private /tmp.
    const runner = await createFakeAgent(w.t, w.companyId, 'Runner', { FAKE_MODE: 'token', FAKE_TOKEN_FILE: tokenFile, FAKE_SLEEP_MS: '20000' }, { cwd: dir });
    const key = await createAgentKey(w.t, runner.id);
    await setLimits(w.t, { commentsPerMinute: 3 });
    expect((await w.t.api('POST', `/api/agents/${runner.id}/heartbeat/invoke`)).status).toBe(202);
    const runToken = await eventually(() => (existsSync(tokenFile) && readFileSync(tokenFile, 'utf8')) || undefined, 15_000, 'the run token');
    expect((await post(w, 'by key 1', key)).status).toBe(201);
    expect((await post(w, 'by key 2', key)).status).toBe(201);
    expect((await post(w, 'by the run', runToken)).status).toBe(201);
    expect((await post(w, 'by the run again', runToken)).status).toBe(429);
    expect((await post(w, 'by key 3', key)).status).toBe(429);
    // Another agent is not affected.
    expect((await post(w, 'someone else', w.key)).status).toBe(201);
    const run = await waitForRun(w.t, w.companyId, runner.id, (r) => r.status === 'running');
    await w.t.api('POST', `/api/heartbeat-runs/${run.id}/cancel`);
    await waitForRun(w.t, w.companyId, runner.id);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('limit hits in the inbox', () => {
  it('an agent hitting a limit shows once per agent and limit in the founder\'s inbox, linked to the agent, and can be dismissed', async () => {
    w = await startLimitsWorld();
    await setLimits(w.t, { commentsPerMinute: 1 });
    expect((await post(w, 'first', w.key)).status).toBe(201);
    expect((await post(w, 'second', w.key)).status).toBe(429);
    expect((await post(w, 'oversized '.repeat(7000), w.key)).status).toBe(413);
    const items = (await w.t.api('GET', `/api/companies/${w.companyId}/inbox`)).body.items as any[];
    const hits = items.filter((i) => i.kind === 'limit_hit');
    expect(hits.map((h) => h.refs.limit).sort()).toEqual(['commentMaxBytes', 'commentsPerMinute']);
    for (const h of hits) {
      expect(h).toMatchObject({ link: { type: 'agent', id: w.agent.id, path: `/agents/${w.agent.id}` }, actions: ['open', 'dismiss'], refs: { agentId: w.agent.id } });
      expect(h.title).toContain('hit a limit');
    }
    const dismissed = await w.t.api('POST', `/api/companies/${w.companyId}/inbox/${encodeURIComponent(hits[0].id)}/dismiss`, { body: {} });
    expect(dismissed.status, dismissed.text).toBeLessThan(300);
    const after = ((await w.t.api('GET', `/api/companies/${w.companyId}/inbox`)).body.items as any[]).filter((i) => i.kind === 'limit_hit');
    expect(after.map((h) => h.id)).toEqual([hits[1].id]);
  });
});
