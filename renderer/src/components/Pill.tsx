import type { ReactNode } from 'react';

export type Tone = 'neutral' | 'blue' | 'green' | 'amber' | 'red' | 'violet';

const TONES: Record<string, Tone> = {
  // agents
  idle: 'neutral',
  running: 'blue',
  paused: 'amber',
  error: 'red',
  terminated: 'neutral',
  draft: 'violet',
  // issues
  backlog: 'neutral',
  todo: 'neutral',
  in_progress: 'blue',
  in_review: 'violet',
  blocked: 'red',
  done: 'green',
  cancelled: 'neutral',
  // approvals
  pending: 'amber',
  approved: 'green',
  rejected: 'red',
  revision_requested: 'amber',
  resubmitted: 'amber',
  // runs
  queued: 'neutral',
  succeeded: 'green',
  failed: 'red',
  timed_out: 'red',
  lost: 'red',
  // interactions
  accepted: 'green',
  answered: 'green',
  superseded: 'neutral',
  // priorities and budget
  critical: 'red',
  high: 'amber',
  medium: 'neutral',
  low: 'neutral',
  ok: 'green',
  warning: 'amber',
  exceeded: 'red',
};

export const toneOf = (status: string): Tone => TONES[status] ?? 'neutral';
export const humanize = (s: string) => s.replace(/_/g, ' ');
/** `in_progress` → `In progress`, for headings. */
export const titleOf = (s: string) => humanize(s).charAt(0).toUpperCase() + humanize(s).slice(1);

export function Pill({ status, tone, children }: { status?: string; tone?: Tone; children?: ReactNode }) {
  const t = tone ?? (status ? toneOf(status) : 'neutral');
  return (
    <span className={`pill pill-${t}`} data-status={status}>
      {children ?? (status ? humanize(status) : null)}
    </span>
  );
}
