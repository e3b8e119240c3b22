import { describe, expect, it } from 'vitest';
import { inboxNotices, NoticeDeduper, Notifier, noticeFor, type BusEvent, type InboxEntry, type Notice } from '../../../main/electron/notifications.js';

const ev = (type: BusEvent['type'], entityId: string, extra: Record<string, unknown> = {}): BusEvent => ({
  companyId: 'c1',
  type,
  data: { activityId: `a-${type}-${entityId}`, entityType: 'x', entityId, summary: `${type} ${entityId}`, ...extra },
});
const none = () => null;

describe('which events notify, with which deep link', () => {
  it('approval waiting', () => {
    expect(noticeFor(ev('approval.created', 'ap1'), none)).toEqual({
      kind: 'approval',
      key: 'approval:ap1',
      title: 'Approval waiting',
      body: 'approval.created ap1',
      route: '#/approvals/ap1?company=c1',
    });
    expect(noticeFor(ev('approval.resubmitted', 'ap1'), none)?.key).toBe('approval:ap1');
    expect(noticeFor(ev('approval.approved', 'ap1'), none)).toBeNull();
  });
  it('run failed, timed out or lost; never a good run', () => {
    expect(noticeFor(ev('run.failed', 'r1'), none)).toMatchObject({ kind: 'run_failed', title: 'Run failed', route: '#/runs/r1?company=c1' });
    expect(noticeFor(ev('run.timed_out', 'r2'), none)).toMatchObject({ kind: 'run_failed', title: 'Run timed out' });
    expect(noticeFor(ev('run.lost', 'r3'), none)).toMatchObject({ kind: 'run_failed', title: 'Run lost' });
    for (const t of ['run.succeeded', 'run.cancelled', 'run.started', 'run.queued', 'run.log'] as const) expect(noticeFor(ev(t, 'r'), none)).toBeNull();
  });
  it('budget alerts, per month', () => {
    const month = () => ({ month: '2026-11' });
    expect(noticeFor(ev('budget.warning', 'ag1'), month)).toMatchObject({ kind: 'budget_warning', key: 'budget_warning:ag1:2026-11', route: '#/costs?company=c1' });
    expect(noticeFor(ev('agent.budget_paused', 'ag1'), month)).toMatchObject({ kind: 'budget_stop', key: 'budget_stop:ag1:2026-11' });
    expect(noticeFor(ev('company.budget_exhausted', 'c1'), month)).toMatchObject({ kind: 'budget_stop', title: 'Budget used up' });
  });
  it('issue blocked, read from the activity details', () => {
    const to = (status: string) => () => ({ from: 'in_progress', to: status });
    expect(noticeFor(ev('issue.status_changed', 'i1'), to('blocked'))).toMatchObject({ kind: 'issue_blocked', route: '#/issues/i1?company=c1' });
    expect(noticeFor(ev('issue.status_changed', 'i1'), to('done'))).toBeNull();
    expect(noticeFor(ev('issue.status_changed', 'i1'), none)).toBeNull();
  });
  it('confirmation requested and questions, linked to the interaction', () => {
    const kind = (k: string) => () => ({ interactionId: 'in1', kind: k });
    expect(noticeFor(ev('issue.interaction_created', 'i1'), kind('request_confirmation'))).toMatchObject({
      kind: 'confirmation',
      key: 'confirmation:in1',
      route: '#/issues/i1?company=c1&interaction=in1',
    });
    expect(noticeFor(ev('issue.interaction_created', 'i1'), kind('ask_user_questions'))).toMatchObject({ kind: 'question' });
    expect(noticeFor(ev('issue.interaction_created', 'i1'), kind('suggest_tasks'))).toBeNull();
  });
  it('only looks details up when it needs them, and escapes ids in routes', () => {
    let lookups = 0;
    const counting = () => {
      lookups++;
      return null;
    };
    noticeFor(ev('approval.created', 'a'), counting);
    noticeFor(ev('issue.commented', 'i'), counting);
    expect(lookups).toBe(0);
    expect(noticeFor({ companyId: 'c/1', type: 'run.failed', data: { entityId: 'r/../x', summary: 's' } }, none)?.route).toBe('#/runs/r%2F..%2Fx?company=c%2F1');
    expect(noticeFor({ companyId: 'c1', type: 'run.failed', data: {} }, none)).toBeNull();
  });
});

describe('no repeats', () => {
  it('a key shows once; memory stays bounded', () => {
    const d = new NoticeDeduper(3);
    expect(d.first('a')).toBe(true);
    expect(d.first('a')).toBe(false);
    d.first('b');
    d.first('c');
    d.first('d'); // evicts 'a'
    expect(d.first('b')).toBe(false);
    expect(d.first('a')).toBe(true);
  });

  it('the notifier shows one notification per entity and kind', () => {
    const shown: Notice[] = [];
    let focused = false;
    let supported = true;
    const n = new Notifier({ details: () => ({ month: '2026-11' }), supported: () => supported, windowFocused: () => focused, show: (x) => shown.push(x) });
    expect(n.handle(ev('approval.created', 'ap1'))).not.toBeNull();
    expect(n.handle(ev('approval.resubmitted', 'ap1'))).toBeNull();
    expect(n.handle(ev('run.failed', 'ap1'))).not.toBeNull(); // other kind, same id
    expect(n.handle(ev('issue.commented', 'i1'))).toBeNull();
    focused = true;
    expect(n.handle(ev('run.failed', 'r9'))).toBeNull(); // the window shows it already
    focused = false;
    expect(n.handle(ev('run.failed', 'r9'))).toBeNull(); // and it is not repeated later
    supported = false;
    expect(n.handle(ev('approval.created', 'ap2'))).toBeNull();
    expect(shown.map((s) => s.key)).toEqual(['approval:ap1', 'run_failed:ap1']);
  });
});

describe('inbox items no event announces', () => {
  const item = (id: string, kind: string, extra: Partial<InboxEntry> = {}): InboxEntry => ({ companyId: 'c1', id, kind, title: `title of ${id}`, summary: '', link: { path: `/x/${id}` }, ...extra });

  it('one notice per new CRM draft, limit hit or day-old block, none for what waited at start or for kinds events cover', () => {
    const shown: Notice[] = [];
    let focused = false;
    const n = new Notifier({ details: () => null, supported: () => true, windowFocused: () => focused, show: (x) => shown.push(x) });
    // At start: what is already waiting is learned, not announced.
    expect(n.handleInbox([item('crm_draft:a', 'crm_draft'), item('approval:p', 'approval')])).toEqual([]);
    const next = n.handleInbox([item('crm_draft:a', 'crm_draft'), item('limit_hit:h', 'limit_hit'), item('issue_blocked:i', 'issue_blocked'), item('approval:q', 'approval')]);
    expect(next.map((x) => [x.kind, x.key, x.route])).toEqual([
      ['limit_hit', 'inbox:limit_hit:h', '#/x/limit_hit:h?company=c1'],
      ['issue_blocked', 'inbox:issue_blocked:i', '#/x/issue_blocked:i?company=c1'],
    ]);
    expect(shown).toHaveLength(2);
    // No repeats on the next look; a focused window shows its own inbox instead.
    expect(n.handleInbox([item('limit_hit:h', 'limit_hit'), item('issue_blocked:i', 'issue_blocked')])).toEqual([]);
    focused = true;
    expect(n.handleInbox([item('crm_draft:b', 'crm_draft')])).toEqual([]);
    expect(shown).toHaveLength(2);
  });

  it('notices carry the item title and a deep link into its company', () => {
    expect(inboxNotices([item('crm_draft:z', 'crm_draft', { companyId: 'c 2', title: 'CRM draft to ana@x.test' })])).toEqual([
      { kind: 'crm_draft', key: 'inbox:crm_draft:z', title: 'CRM draft waiting', body: 'CRM draft to ana@x.test', route: '#/x/crm_draft:z?company=c%202' },
    ]);
  });
});
