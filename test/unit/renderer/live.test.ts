import { describe, expect, it, vi } from 'vitest';
import { Invalidator, invalidationsFor } from '../../../renderer/src/api/live.js';
import { keys } from '../../../renderer/src/api/keys.js';

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
