/** A budget window: [start, end) as ISO timestamps, which sort and compare as text in SQLite. */
export interface MonthWindow {
  /** `YYYY-MM` */
  readonly month: string;
  readonly start: string;
  readonly end: string;
}

// The last window asked for: every cost event asks for the current month's several times (the
// budget rules of each scope), and building it (two dates, three ISO strings) was 2.4% of a cost
// event's CPU (issue 17). Windows are frozen, so sharing one is safe.
let last: { startMs: number; endMs: number; window: MonthWindow } | null = null;

/** The budget window: the calendar month in UTC containing `now` (spec 8). */
export function monthWindow(now: Date): MonthWindow {
  const t = now.getTime();
  if (last && t >= last.startMs && t < last.endMs) return last.window;
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const window: MonthWindow = Object.freeze({ month: start.toISOString().slice(0, 7), start: start.toISOString(), end: end.toISOString() });
  last = { startMs: start.getTime(), endMs: end.getTime(), window };
  return window;
}

/** `YYYY-MM`, months 01 to 12, years from 1970: the `month` query of the cost reports. */
export const MONTH_PATTERN = /^(19[7-9]\d|[2-9]\d{3})-(0[1-9]|1[0-2])$/;

/** The window of a `YYYY-MM` month (already validated against MONTH_PATTERN). */
export function windowOfMonth(month: string): MonthWindow {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  return monthWindow(new Date(Date.UTC(year, mon - 1, 1)));
}

export const inWindow = (iso: string, w: MonthWindow): boolean => iso >= w.start && iso < w.end;
