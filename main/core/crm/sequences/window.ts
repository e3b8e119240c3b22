import { localMinutes, parseHhMm } from '../rule-matcher.js';
import type { SendWindow } from './schema.js';

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };
const partsFormatters = new Map<string, Intl.DateTimeFormat>();

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: number;
}

function localParts(at: Date, tz: string): LocalParts {
  let f = partsFormatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', weekday: 'short', hourCycle: 'h23' });
    partsFormatters.set(tz, f);
  }
  const out: LocalParts = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0, weekday: 0 };
  for (const p of f.formatToParts(at)) {
    if (p.type === 'weekday') out.weekday = WEEKDAYS[p.value] ?? 0;
    else if (p.type === 'hour') out.hour = Number(p.value) % 24;
    else if (p.type === 'year' || p.type === 'month' || p.type === 'day' || p.type === 'minute' || p.type === 'second') out[p.type] = Number(p.value);
  }
  return out;
}

/** The zone's offset from UTC at `at`, in ms (local wall time minus UTC). */
function offsetMs(at: Date, tz: string): number {
  const p = localParts(at, tz);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(at.getTime() / 1000) * 1000;
}

/**
 * The instant at which the wall clock of `tz` shows the given local time. Two passes settle the
 * offset across a DST change; a wall time that does not exist (spring forward) lands just after the gap.
 */
export function zonedTime(year: number, month: number, day: number, minutes: number, tz: string): Date {
  const wall = Date.UTC(year, month - 1, day, Math.floor(minutes / 60), minutes % 60);
  let guess = wall - offsetMs(new Date(wall), tz);
  const second = wall - offsetMs(new Date(guess), tz);
  if (second !== guess) guess = Math.max(guess, second);
  return new Date(guess);
}

/** True when `at` lies inside the window: an allowed local weekday and [start, end) on the local clock. */
export function inSendWindow(at: Date, window: SendWindow): boolean {
  const weekday = localParts(at, window.tz).weekday;
  if (!window.weekdays.includes(weekday)) return false;
  const m = localMinutes(at, window.tz);
  return m >= parseHhMm(window.start) && m < parseHhMm(window.end);
}

/**
 * The first instant at or after `at` inside the window: `at` itself when it already is, else the
 * next window opening on an allowed weekday (looked up day by day on the local calendar, so DST
 * days of 23 or 25 hours need no arithmetic here).
 */
export function nextSendTime(at: Date, window: SendWindow): Date {
  if (inSendWindow(at, window)) return at;
  const start = parseHhMm(window.start);
  const today = localParts(at, window.tz);
  for (let d = 0; d <= 8; d++) {
    const day = new Date(Date.UTC(today.year, today.month - 1, today.day + d));
    const weekday = ((day.getUTCDay() + 6) % 7) + 1;
    if (!window.weekdays.includes(weekday)) continue;
    const opening = zonedTime(day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate(), start, window.tz);
    if (opening.getTime() > at.getTime()) return opening;
  }
  // Unreachable with at least one weekday (validated); a week later keeps the scheduler moving regardless.
  return new Date(at.getTime() + 7 * 86_400_000);
}
