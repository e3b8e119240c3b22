import { describe, expect, it } from 'vitest';
import { actionRequest, newItems } from '../../../renderer/src/pages/inbox/actions.js';
import { cronInWords, triggerInWords } from '../../../renderer/src/pages/routines/describe.js';
import type { InboxItem } from '../../../renderer/src/api/types.js';

const item = (id: string, over: Partial<InboxItem> = {}): InboxItem => ({
  id,
  kind: 'approval',
  title: 't',
  summary: '',
  createdAt: '2026-01-01T00:00:00.000Z',
  link: { type: 'approval', id, path: `/approvals/${id}` },
  actions: ['approve', 'reject', 'dismiss'],
  refs: { approvalId: 'a1' },
  ...over,
});

describe('inbox notifications', () => {
  it('notifies nothing on the first load, then only items not seen before', () => {
    expect(newItems(null, [item('a'), item('b')])).toEqual([]);
    expect(newItems(new Set(['a', 'b']), [item('a'), item('b'), item('c')]).map((i) => i.id)).toEqual(['c']);
    expect(newItems(new Set(['a', 'b', 'c']), [item('c')])).toEqual([]);
  });
});

describe('inbox actions', () => {
  it('maps each inline action to the owning area\'s endpoint', () => {
    expect(actionRequest('c1', item('approval:a1'), 'approve')).toEqual({ path: '/api/approvals/a1/approve', body: {} });
    expect(actionRequest('c1', item('crm_draft:d1', { kind: 'crm_draft', refs: { activityId: 'd1' } }), 'reject')).toEqual({ path: '/api/companies/c1/crm/activities/d1/reject', body: {} });
    expect(actionRequest('c1', item('interaction:i1', { kind: 'interaction', refs: { issueId: 'x', interactionId: 'i1' } }), 'accept')).toEqual({ path: '/api/issues/x/interactions/i1/accept', body: {} });
    expect(actionRequest('c1', item('run_failed:r1', { kind: 'run_failed', refs: { agentId: 'g1', runId: 'r1', issueId: null } }), 'retry')).toEqual({ path: '/api/agents/g1/heartbeat/invoke', body: {} });
    expect(actionRequest('c1', item('approval:a1'), 'retry')).toBeNull();
  });
});

describe('routine triggers in words', () => {
  it('uses cronstrue for schedules', () => {
    expect(cronInWords('0 9 * * 1-5')).toBe('At 09:00, Monday through Friday');
    expect(triggerInWords({ kind: 'schedule', cron: '0 9 * * 1-5', timezone: 'Europe/Berlin' })).toBe('At 09:00, Monday through Friday (Europe/Berlin)');
    expect(cronInWords('not a cron')).toBe('Not a valid cron expression');
  });
});
