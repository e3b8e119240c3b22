import { describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { Invalidator, LIVE_INVALIDATIONS, invalidationsFor } from '../../../renderer/src/api/live.js';
import { keys } from '../../../renderer/src/api/keys.js';
import { EVENT_KINDS } from '../../../main/core/kernel/events.js';

const keysOf = (type: string, data: Record<string, unknown> = {}) => invalidationsFor('c1', { type, data }).map((i) => JSON.stringify(i.queryKey));

describe('invalidationsFor', () => {
  it('maps each event area to the queries it makes stale', () => {
    expect(keysOf('issue.created')).toEqual(expect.arrayContaining([JSON.stringify(keys.issues('c1')), JSON.stringify(['issue'])]));
    // approving a hire activates its agent
    expect(keysOf('approval.approved')).toEqual(expect.arrayContaining([JSON.stringify(keys.approvals('c1')), JSON.stringify(keys.agents('c1'))]));
    expect(keysOf('run.succeeded', { entityId: 'r1' })).toEqual(expect.arrayContaining([JSON.stringify(keys.runs('c1')), JSON.stringify(keys.run('r1'))]));
    expect(keysOf('cost.recorded')).toEqual(expect.arrayContaining([JSON.stringify(keys.costs('c1')), JSON.stringify(keys.agents('c1'))]));
    // an area the board does not know yet (plugins, CRM) refreshes everything of the company
    expect(keysOf('crm.activity_sent')).toContain(JSON.stringify(['company', 'c1']));
  });

  it('never invalidates on run output (the transcript follows it directly)', () => {
    expect(invalidationsFor('c1', { type: 'run.log', data: { runId: 'r' } })).toEqual([]);
  });

  it('keeps company-level invalidation exact, so a budget change does not refetch every list', () => {
    const company = invalidationsFor('c1', { type: 'company.updated', data: {} }).find((i) => JSON.stringify(i.queryKey) === JSON.stringify(keys.company('c1')));
    expect(company?.exact).toBe(true);
  });
});

describe('Invalidator', () => {
  it('coalesces a burst of events into one invalidation per query', () => {
    vi.useFakeTimers();
    try {
      const invalidateQueries = vi.fn(async () => {});
      const inv = new Invalidator({ invalidateQueries } as never, 100);
      for (let i = 0; i < 20; i++) inv.add(invalidationsFor('c1', { type: 'issue.updated', data: { entityId: `i${i}` } }));
      expect(invalidateQueries).not.toHaveBeenCalled();
      vi.advanceTimersByTime(100);
      const calls = invalidateQueries.mock.calls.map((c) => JSON.stringify((c as unknown as [{ queryKey: unknown }])[0].queryKey));
      expect(new Set(calls).size).toBe(calls.length);
      expect(calls).toContain(JSON.stringify(keys.issues('c1')));
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('precise invalidation against a real query cache', () => {
  const ISSUE = 'issue-uuid-1';
  const OTHER = 'issue-uuid-2';

  /** A cache with the dashboard's and two issue pages' queries, all observed (on screen). */
  function screen() {
    const qc = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
    const fetched: string[] = [];
    const unsubscribes: (() => void)[] = [];
    const watch = (queryKey: readonly unknown[], data: unknown) => {
      qc.setQueryData(queryKey, data);
      const observer = new QueryObserver(qc, {
        queryKey,
        queryFn: async () => {
          fetched.push(JSON.stringify(queryKey));
          return data;
        },
      });
      unsubscribes.push(observer.subscribe(() => {}));
    };
    watch(keys.activity('c1'), { items: [] });
    watch(keys.inbox('c1'), { items: [], count: 0 });
    watch(keys.issues('c1', { status: 'blocked' }), { items: [] });
    watch(keys.issues('c1', { status: 'todo,in_progress,in_review,blocked' }), { items: [{ id: ISSUE }] });
    watch(keys.agents('c1'), []);
    watch(keys.costs('c1', 'summary'), {});
    watch(keys.company('c1'), { id: 'c1' });
    watch(keys.runs('c1', { limit: 50 }), { items: [] });
    // The issue page opened by identifier; its parts keyed by id.
    watch(keys.issue('ACME-1'), { id: ISSUE, identifier: 'ACME-1', blockedBy: [] });
    watch(keys.issue(ISSUE, 'comments'), { pages: [] });
    watch(keys.issue(ISSUE, 'attachments'), []);
    watch(keys.issue(ISSUE, 'interactions'), []);
    watch(keys.issue(ISSUE, 'doc:plan'), {});
    watch(keys.issue(ISSUE, 'workspace'), null);
    // Another issue's page that shows ACME-1 as its blocker.
    watch(keys.issue('ACME-2'), { id: OTHER, identifier: 'ACME-2', blockedBy: [{ id: ISSUE }] });
    watch(keys.issue(OTHER, 'comments'), { pages: [] });
    return { qc, fetched, stop: () => unsubscribes.forEach((u) => u()) };
  }

  async function deliver(s: ReturnType<typeof screen>, ...events: { type: string; data: Record<string, unknown> }[]) {
    const inv = new Invalidator(s.qc, 0);
    for (const e of events) inv.add(invalidationsFor('c1', e));
    inv.flush();
    await new Promise((r) => setTimeout(r, 0));
    return [...s.fetched].sort();
  }

  it('refetches only the thread and the activity for a comment', async () => {
    const s = screen();
    const fetched = await deliver(s, { type: 'issue.commented', data: { entityId: ISSUE } });
    expect(fetched).toEqual([JSON.stringify(keys.activity('c1')), JSON.stringify(keys.issue(ISSUE, 'comments'))].sort());
    s.stop();
  });

  it('refetches the inbox for a comment only when the inbox lists that issue', async () => {
    const s = screen();
    s.qc.setQueryData(keys.inbox('c1'), { items: [{ id: `issue_blocked:${ISSUE}`, refs: { issueId: ISSUE } }], count: 1 });
    const fetched = await deliver(s, { type: 'issue.commented', data: { entityId: ISSUE } });
    expect(fetched).toContain(JSON.stringify(keys.inbox('c1')));
    s.stop();
  });

  it('refetches a page opened by identifier, the lists, and pages showing the issue when it moves', async () => {
    const s = screen();
    const fetched = await deliver(s, { type: 'issue.status_changed', data: { entityId: ISSUE } });
    expect(fetched).toEqual(
      expect.arrayContaining([
        JSON.stringify(keys.issue('ACME-1')),
        JSON.stringify(keys.issue('ACME-2')),
        JSON.stringify(keys.issues('c1', { status: 'blocked' })),
        JSON.stringify(keys.issues('c1', { status: 'todo,in_progress,in_review,blocked' })),
      ]),
    );
    expect(fetched).not.toContain(JSON.stringify(keys.issue(ISSUE, 'comments')));
    expect(fetched).not.toContain(JSON.stringify(keys.agents('c1')));
    s.stop();
  });

  it('refetches each query once for a burst of events that all name it', async () => {
    const s = screen();
    const fetched = await deliver(
      s,
      { type: 'issue.status_changed', data: { entityId: ISSUE } },
      { type: 'issue.updated', data: { entityId: ISSUE } },
      { type: 'issue.commented', data: { entityId: ISSUE } },
      { type: 'run.succeeded', data: { entityId: 'run-1' } },
    );
    expect(new Set(fetched).size).toBe(fetched.length);
    s.stop();
  });
});

describe('LIVE_INVALIDATIONS', () => {
  it('has an entry for every kind of the event catalogue (each kind has a consumer on the board)', () => {
    expect(EVENT_KINDS.length).toBeGreaterThan(40);
    expect(EVENT_KINDS.filter((k) => !Object.hasOwn(LIVE_INVALIDATIONS, k))).toEqual([]);
    expect(Object.keys(LIVE_INVALIDATIONS).filter((k) => !(EVENT_KINDS as readonly string[]).includes(k))).toEqual([]);
  });
});
