import { formatDateTime, timeAgo } from '../app/format.js';
import { useMinuteClock } from '../app/minute-clock.js';

/**
 * A moment as the board shows it: relative ("5 min ago"), the exact local time on hover, and
 * kept current every minute. Absent times show a dash.
 */
export function RelativeTime({ iso, prefix }: { iso: string | null | undefined; prefix?: string }) {
  const now = useMinuteClock();
  if (!iso) return <span className="faint">—</span>;
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {prefix ? `${prefix} ` : ''}
      {timeAgo(iso, now)}
    </time>
  );
}
