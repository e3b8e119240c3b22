import { describe, expect, it } from 'vitest';
import { entriesOfActivity, mergeTimeline, visibleWindow, type ActivityRecord } from '../../../renderer/src/pages/issues/timeline/merge.js';
import type { Approval, Comment, HeartbeatRun } from '../../../renderer/src/api/types.js';

const activity = (over: Partial<ActivityRecord>): ActivityRecord => ({
  id: 'a1',
  actorType: 'board',
  actorId: null,
  action: 'issue.updated',
  entityType: 'issue',
  entityId: 'i1',
  summary: '',
  details: null,
  createdAt: '2026-01-01T10:00:00.000Z',
  ...over,
});
const comment = (id: string, createdAt: string) => ({ id, issueId: 'i1', authorType: 'board', authorAgentId: null, body: id, mentionedAgentIds: [], createdAt }) as Comment;
const run = (id: string, queuedAt: string, startedAt: string | null) => ({ id, queuedAt, startedAt, status: 'failed' }) as HeartbeatRun;
const approval = (id: string, createdAt: string) => ({ id, createdAt, status: 'pending' }) as Approval;

describe('entriesOfActivity', () => {
  it('splits one PATCH into a status entry, an assignee entry and an edit of the other fields', () => {
    const entries = entriesOfActivity(
      activity({ action: 'issue.status_changed', details: { fields: ['status', 'assigneeAgentId', 'title'], from: 'todo', to: 'in_review', assigneeFrom: null, assigneeTo: 'ag1' } }),
    );
    expect(entries.map((e) => e.kind)).toEqual(['status', 'assignee', 'edited']);
    expect(entries[0]).toMatchObject({ from: 'todo', to: 'in_review', actor: { type: 'board', id: null } });
    expect(entries[1]).toMatchObject({ from: null, to: 'ag1' });
    expect(entries[2]).toMatchObject({ fields: ['title'] });
    expect(new Set(entries.map((e) => e.key)).size).toBe(3);
  });

  it('reads document changes with their key and revision, and ignores what other panels show', () => {
    expect(entriesOfActivity(activity({ action: 'issue.document_updated', details: { key: 'plan', revisionNumber: 3 } }))).toMatchObject([
      { kind: 'document', change: 'updated', docKey: 'plan', revisionNumber: 3 },
    ]);
    expect(entriesOfActivity(activity({ action: 'issue.commented' }))).toEqual([]);
    expect(entriesOfActivity(activity({ action: 'issue.labels_changed' }))).toEqual([]);
    // An assignee change recorded before the activity named who (no assigneeTo) still shows.
    expect(entriesOfActivity(activity({ details: { fields: ['assigneeAgentId'] } }))).toMatchObject([{ kind: 'assignee', from: null, to: null }]);
    // Old records without details make no entry rather than a broken one.
    expect(entriesOfActivity(activity({ action: 'issue.status_changed', details: null }))).toEqual([]);
  });
});

describe('mergeTimeline', () => {
  it('interleaves every source oldest first; a run sits where it started, or where it was queued', () => {
    const merged = mergeTimeline({
      comments: [comment('c2', '2026-01-01T10:05:00.000Z'), comment('c1', '2026-01-01T10:01:00.000Z')],
      runs: [run('r-started', '2026-01-01T09:00:00.000Z', '2026-01-01T10:03:00.000Z'), run('r-queued', '2026-01-01T10:06:00.000Z', null)],
      approvals: [approval('ap', '2026-01-01T10:04:00.000Z')],
      activity: [activity({ id: 'created', action: 'issue.created', createdAt: '2026-01-01T10:00:00.000Z' })],
    });
    expect(merged.map((e) => e.key)).toEqual(['created', 'comment:c1', 'run:r-started', 'approval:ap', 'comment:c2', 'run:r-queued']);
  });

  it('orders entries at the same moment the same way every time', () => {
    const at = '2026-01-01T10:00:00.000Z';
    const sources = { comments: [comment('b', at), comment('a', at)], runs: [], approvals: [], activity: [] };
    expect(mergeTimeline(sources).map((e) => e.key)).toEqual(['comment:a', 'comment:b']);
    expect(mergeTimeline({ ...sources, comments: [...sources.comments].reverse() }).map((e) => e.key)).toEqual(['comment:a', 'comment:b']);
  });
});

describe('visibleWindow', () => {
  it('keeps the newest entries and counts the earlier ones left out', () => {
    expect(visibleWindow([1, 2, 3, 4, 5], 2)).toEqual({ visible: [4, 5], hidden: 3 });
    expect(visibleWindow([1, 2], 5)).toEqual({ visible: [1, 2], hidden: 0 });
  });
});
