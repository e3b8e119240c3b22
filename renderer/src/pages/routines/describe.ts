import cronstrue from 'cronstrue';
import type { Routine } from '../../api/types.js';

/** "At 09:00, Monday through Friday (Europe/Berlin)", "On webhook", "When fired through the API". */
export function triggerInWords(trigger: Routine['trigger']): string {
  if (trigger.kind === 'webhook') return 'When its webhook URL is called';
  if (trigger.kind === 'api') return 'When fired through the API (or Fire now)';
  return `${cronInWords(trigger.cron)} (${trigger.timezone})`;
}

export function cronInWords(cron: string): string {
  try {
    return cronstrue.toString(cron, { use24HourTimeFormat: true, verbose: false });
  } catch {
    return 'Not a valid cron expression';
  }
}

/** "Mon 30 Mar, 09:00" on the routine's clock, and how far away: "in 3 days". */
export function fireTimeInWords(iso: string, timezone: string, now = Date.now()): { when: string; relative: string } {
  const at = new Date(iso);
  const when = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: timezone }).format(at);
  const mins = Math.round((at.getTime() - now) / 60_000);
  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  const relative = Math.abs(mins) < 60 ? rtf.format(mins, 'minute') : Math.abs(mins) < 48 * 60 ? rtf.format(Math.round(mins / 60), 'hour') : rtf.format(Math.round(mins / 1440), 'day');
  return { when, relative };
}
