import { describe, expect, it } from 'vitest';
import { buildInbox, INBOX_LABEL, type LimitHit } from '../../../renderer/src/pages/dashboard/needs-you.js';

const base = { approvals: [], interactions: [], blocked: [], failedRuns: [], latestRunByAgent: new Map(), agentName: (id: string) => ({ a1: 'Ada', a2: 'Bob' })[id] ?? '?' };
const hit = (id: string, agent: string, limit: string, at: string, extra: Record<string, unknown> = {}): LimitHit => ({
  id,
  entityId: agent,
  summary: `hit ${limit}`,
  details: { limit, ...extra },
  createdAt: at,
});

describe('limit hits in the "needs you" inbox', () => {
  it('lists the newest hit per agent and limit of the last day, linking to the run when there is one', () => {
    const now = new Date('2026-01-02T12:00:00.000Z');
    const items = buildInbox({
      ...base,
      now,
      limitHits: [
        hit('h1', 'a1', 'commentsPerMinute', '2026-01-02T10:00:00.000Z'),
        hit('h2', 'a1', 'commentsPerMinute', '2026-01-02T11:00:00.000Z'),
        hit('h3', 'a2', 'transcriptMaxBytes', '2026-01-02T09:00:00.000Z', { runId: 'r9' }),
        hit('h4', 'a2', 'attachmentCompanyBudgetBytes', '2025-12-31T09:00:00.000Z'),
      ],
    });
    expect(items.map((i) => [i.id, i.kind, i.title, i.href])).toEqual([
      ['h2', 'limit', 'Ada hit a limit', '/agents/a1'],
      ['h3', 'limit', 'Bob hit a limit', '/runs/r9'],
    ]);
    expect(INBOX_LABEL.limit).toBe('Limit hit');
  });
});
