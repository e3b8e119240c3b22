import { Cron } from 'croner';

/** A scheduled instant and its wall-clock time in the routine's timezone (the UNIQUE slot key). */
export interface Slot {
  at: Date;
  key: string;
}

/** Slots enumerated per evaluation at most; a longer gap is worked through on later ticks. */
export const MAX_SLOTS_PER_PASS = 20_000;

const wallClock = (tz: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** `YYYY-MM-DDTHH:mm` on the local clock of `tz`. */
export function localKey(at: Date, tz: string): string {
  const p = Object.fromEntries(wallClock(tz).formatToParts(at).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}

/** Why a cron expression or timezone is not accepted, or null. Only the classic five fields. */
export function cronProblem(cron: string, tz: string): { path: string; message: string } | null {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
  } catch {
    return { path: 'trigger.timezone', message: `unknown IANA timezone "${tz}"` };
  }
  if (cron.trim().split(/\s+/).length !== 5) return { path: 'trigger.cron', message: 'must have exactly five fields: minute hour day-of-month month day-of-week' };
  try {
    new Cron(cron, { timezone: tz, paused: true }).nextRun();
  } catch (err) {
    return { path: 'trigger.cron', message: err instanceof Error ? err.message.replace(/^CronPattern: /, '') : 'invalid cron expression' };
  }
  return null;
}

/**
 * The slots after `after` up to and including `until`. A local time that does not exist (the hour
 * skipped when clocks go forward) is not a slot: croner would shift it, `match` says it is not
 * the pattern's time. An ambiguous local time (the hour repeated when clocks go back) yields two
 * instants with one key; the UNIQUE key makes it fire once.
 */
export function slotsBetween(cron: string, tz: string, after: Date, until: Date, max = MAX_SLOTS_PER_PASS): Slot[] {
  const job = new Cron(cron, { timezone: tz, paused: true });
  const out: Slot[] = [];
  let cursor = after;
  for (let i = 0; i < max; i++) {
    const next = job.nextRun(cursor);
    if (!next || next.getTime() > until.getTime()) break;
    if (job.match(next)) out.push({ at: next, key: localKey(next, tz) });
    cursor = next;
  }
  return out;
}

/** The next `n` distinct slots after `from`, for the board. */
export function nextSlots(cron: string, tz: string, from: Date, n: number): Slot[] {
  const job = new Cron(cron, { timezone: tz, paused: true });
  const out: Slot[] = [];
  let cursor = from;
  for (let i = 0; i < n * 4 && out.length < n; i++) {
    const next = job.nextRun(cursor);
    if (!next) break;
    const key = localKey(next, tz);
    if (job.match(next) && !out.some((s) => s.key === key)) out.push({ at: next, key });
    cursor = next;
  }
  return out;
}
