import type { CrmChannel, CrmRulePredicate } from './schema.js';

/** What an approval rule is matched against: one outbound message at one instant. */
export interface RuleSubject {
  channel: CrmChannel;
  niche: string | null;
  tags: readonly string[];
  at: Date;
}

/** True when `tz` is an IANA time-zone name this runtime knows. */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * Minutes since local midnight of `at` in `tz`, read from the wall clock through Intl, so DST days
 * (23 or 25 hours) need no arithmetic of ours: a window is about the time people see on the clock.
 */
export function localMinutes(at: Date, tz: string): number {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formatters.set(tz, f);
  }
  let hour = 0;
  let minute = 0;
  for (const part of f.formatToParts(at)) {
    if (part.type === 'hour') hour = Number(part.value) % 24;
    if (part.type === 'minute') minute = Number(part.value);
  }
  return hour * 60 + minute;
}

export const parseHhMm = (s: string): number => Number(s.slice(0, 2)) * 60 + Number(s.slice(3, 5));

/**
 * Half-open window [start, end) on the local clock. start > end wraps midnight (22:00–06:00);
 * start = end is the whole day.
 */
export function inWindow(minutes: number, start: string, end: string): boolean {
  const s = parseHhMm(start);
  const e = parseHhMm(end);
  if (s === e) return true;
  return s < e ? minutes >= s && minutes < e : minutes >= s || minutes < e;
}

/** Every predicate field present must hold: channel equal, niche equal (case-insensitive), all tags present, inside the window. */
export function ruleMatches(predicate: CrmRulePredicate, subject: RuleSubject): boolean {
  if (predicate.channel && predicate.channel !== subject.channel) return false;
  if (predicate.niche != null && predicate.niche.toLowerCase() !== (subject.niche ?? '').toLowerCase()) return false;
  if (predicate.tags?.length) {
    const have = new Set(subject.tags.map((t) => t.toLowerCase()));
    if (!predicate.tags.every((t) => have.has(t.toLowerCase()))) return false;
  }
  const w = predicate.timeOfDay;
  if (w && !inWindow(localMinutes(subject.at, w.tz), w.start, w.end)) return false;
  return true;
}

/** Rules already in evaluation order (priority, then creation): the first that matches decides. */
export function firstMatchingRule<R extends { predicate: CrmRulePredicate; enabled: boolean }>(rules: readonly R[], subject: RuleSubject): R | null {
  for (const rule of rules) if (rule.enabled && ruleMatches(rule.predicate, subject)) return rule;
  return null;
}
