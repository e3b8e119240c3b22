/** Money is kept in cents (with decimals); shown as dollars. */
export function formatCents(cents: number | null | undefined): string {
  if (cents === null || cents === undefined) return '—';
  const dollars = cents / 100;
  const digits = Math.abs(dollars) < 1 && dollars !== 0 ? 4 : 2;
  return `$${dollars.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: digits })}`;
}

export function formatBudget(cents: number): string {
  return cents === 0 ? 'No limit' : formatCents(cents);
}

/** "just now", "5 min ago", "3 h ago", then a date. */
export function timeAgo(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '—';
  const diff = Math.max(0, now - new Date(iso).getTime());
  const s = Math.floor(diff / 1000);
  if (s < 45) return 'just now';
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 24) return `${h} h ago`;
  const d = Math.round(h / 24);
  if (d < 7) return `${d} d ago`;
  return new Date(iso).toLocaleDateString();
}

export function formatDateTime(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString() : '—';
}

export function duration(startIso: string | null, endIso: string | null, now = Date.now()): string {
  if (!startIso) return '—';
  const ms = (endIso ? new Date(endIso).getTime() : now) - new Date(startIso).getTime();
  if (ms < 1000) return `${Math.max(0, ms)} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  return `${Math.floor(s / 60)}m ${s % 60}s`;
}

export function percent(utilization: number | null): string {
  if (utilization === null) return '—';
  // A few cents against a real budget is not nothing: say so rather than "0%".
  if (utilization > 0 && utilization < 0.005) return '<1%';
  return `${Math.round(utilization * 100)}%`;
}
