import { describe, expect, it } from 'vitest';
import { applyMention, matchCandidates, mentionQuery } from '../../../renderer/src/app/mentions.js';
import { budgetLevel, fillPercent } from '../../../renderer/src/components/BudgetBar.js';
import { dollarsToCents, centsToDollars } from '../../../renderer/src/app/money.js';
import { formatCents } from '../../../renderer/src/app/format.js';
import { compactDiff, configDiff, textDiff } from '../../../renderer/src/app/config-diff.js';
import { matchPath, parseHash } from '../../../renderer/src/app/router.js';
import { recentMonths } from '../../../renderer/src/pages/costs/months.js';
import { effectiveTheme, nextTheme } from '../../../renderer/src/stores/ui.js';
import { shouldRetry } from '../../../renderer/src/app/App.js';
import { ApiError } from '../../../renderer/src/api/client.js';

const agents = [
  { id: '1', name: 'Ada Lovelace', urlKey: 'ada' },
  { id: '2', name: 'Ben', urlKey: 'ben' },
  { id: '3', name: 'Abe', urlKey: 'abe-lincoln' },
];

describe('@mention completion', () => {
  it('finds the mention being typed only at a word start', () => {
    expect(mentionQuery('hello @Ad', 9)).toEqual({ start: 6, query: 'Ad' });
    expect(mentionQuery('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionQuery('mail me@ex', 10)).toBeNull();
    expect(mentionQuery('@ada done', 9)).toBeNull();
  });
  it('ranks prefix matches first and inserts the shortname, which always parses back', () => {
    expect(matchCandidates(agents, 'a').map((a) => a.name)).toEqual(['Ada Lovelace', 'Abe']);
    expect(matchCandidates(agents, 'b').map((a) => a.name)).toEqual(['Ben', 'Abe']);
    expect(matchCandidates(agents, 'lincoln').map((a) => a.id)).toEqual(['3']);
    expect(applyMention('hi @Ad there', 3, 6, agents[0]!)).toEqual({ text: 'hi @ada  there', caret: 8 });
  });
});

describe('budgets and money', () => {
  it('marks the soft alert from 80% and the hard stop at 100%; 0 means no limit', () => {
    expect(budgetLevel(79, 100)).toBe('ok');
    expect(budgetLevel(80, 100)).toBe('warning');
    expect(budgetLevel(100, 100)).toBe('exceeded');
    expect(budgetLevel(5000, 0)).toBe('unlimited');
    expect(fillPercent(300, 100)).toBe(100);
    expect(fillPercent(60, 100)).toBe(50);
  });
  it('parses dollars into cents and formats cents back, keeping fractions of a cent visible', () => {
    expect(dollarsToCents('12.50')).toBe(1250);
    expect(dollarsToCents('$1,000')).toBe(100000);
    expect(dollarsToCents('')).toBe(0);
    expect(dollarsToCents('12.345')).toBeNull();
    expect(dollarsToCents('ten')).toBeNull();
    expect(centsToDollars(1250)).toBe('12.50');
    expect(centsToDollars(5000)).toBe('50');
    expect(formatCents(1.25)).toBe('$0.0125');
    expect(formatCents(123456)).toBe('$1,234.56');
  });
});

describe('configuration diff', () => {
  it('ignores key order and shows only changed lines with context', () => {
    expect(configDiff({ a: 1, b: 2 }, { b: 2, a: 1 }).every((l) => l.kind === 'same')).toBe(true);
    const lines = configDiff({ command: 'node', timeoutSec: 300 }, { command: 'node', timeoutSec: 60 });
    expect(lines.filter((l) => l.kind !== 'same')).toEqual([
      { kind: 'del', text: '  "timeoutSec": 300' },
      { kind: 'add', text: '  "timeoutSec": 60' },
    ]);
    const long = textDiff(Array.from({ length: 20 }, (_, i) => `l${i}`).join('\n'), Array.from({ length: 20 }, (_, i) => (i === 10 ? 'changed' : `l${i}`)).join('\n'));
    const compact = compactDiff(long, 1);
    expect(compact.map((l) => l.kind)).toEqual(['gap', 'same', 'del', 'add', 'same', 'gap']);
  });
});

describe('routing, months, board columns, theme, retries', () => {
  it('parses hash routes and matches patterns', () => {
    const r = parseHash('#/issues/ACME-1?view=list');
    expect(r.path).toBe('/issues/ACME-1');
    expect(r.query.get('view')).toBe('list');
    expect(parseHash('').path).toBe('/');
    expect(matchPath('/issues/:issueId', r.path)).toEqual({ issueId: 'ACME-1' });
    expect(matchPath('/issues', r.path)).toBeNull();
  });
  it('lists UTC months newest first across a year boundary', () => {
    expect(recentMonths(new Date('2026-02-15T00:00:00Z'), 3)).toEqual(['2026-02', '2026-01', '2025-12']);
  });
  it('follows the OS under "system" and cycles system → light → dark', () => {
    expect(effectiveTheme('system', true)).toBe('dark');
    expect(effectiveTheme('light', true)).toBe('light');
    expect([nextTheme('system'), nextTheme('light'), nextTheme('dark')]).toEqual(['light', 'dark', 'system']);
  });
  it('does not retry a request the API refused, but retries network failures twice', () => {
    expect(shouldRetry(0, new ApiError(404, 'not_found', 'Issue not found'))).toBe(false);
    expect(shouldRetry(0, new ApiError(0, 'network_error', 'down'))).toBe(true);
    expect(shouldRetry(2, new ApiError(503, 'shutting_down', 'later'))).toBe(false);
  });
});
