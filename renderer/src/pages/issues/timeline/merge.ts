import type { Approval, Comment, HeartbeatRun } from '../../../api/types.js';

/** An activity-log record as GET …/activity returns it (main/core/activity/routes.ts). */
export interface ActivityRecord {
  id: string;
  actorType: 'board' | 'agent' | 'system';
  actorId: string | null;
  action: string;
  entityType: string;
  entityId: string;
  summary: string;
  details: Record<string, unknown> | null;
  createdAt: string;
}

export interface Actor {
  type: 'board' | 'agent' | 'system';
  id: string | null;
}

/** One thing that happened to the issue, at one moment. */
export type TimelineEntry =
  | { kind: 'comment'; key: string; at: string; comment: Comment }
  | { kind: 'run'; key: string; at: string; run: HeartbeatRun }
  | { kind: 'approval'; key: string; at: string; approval: Approval }
  | { kind: 'created'; key: string; at: string; actor: Actor }
  | { kind: 'status'; key: string; at: string; actor: Actor; from: string; to: string }
  | { kind: 'assignee'; key: string; at: string; actor: Actor; from: string | null; to: string | null }
  | { kind: 'edited'; key: string; at: string; actor: Actor; fields: string[] }
  | { kind: 'document'; key: string; at: string; actor: Actor; change: 'created' | 'updated' | 'deleted'; docKey: string; revisionNumber: number | null }
  | { kind: 'checkout'; key: string; at: string; actor: Actor; change: 'checked_out' | 'adopted' | 'released' };

export interface TimelineSources {
  comments: readonly Comment[];
  runs: readonly HeartbeatRun[];
  approvals: readonly Approval[];
  activity: readonly ActivityRecord[];
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);
/** Fields the timeline shows as their own entries, not as "edited". */
const SHOWN_APART = new Set(['status', 'assigneeAgentId']);

/**
 * The entries one activity record stands for. A single PATCH can change status, assignee and
 * other fields at once; each becomes its own entry so the reader sees every change.
 */
export function entriesOfActivity(a: ActivityRecord): TimelineEntry[] {
  const actor: Actor = { type: a.actorType, id: a.actorId };
  const d = a.details ?? {};
  const base = { at: a.createdAt, actor };
  switch (a.action) {
    case 'issue.created':
      return [{ kind: 'created', key: a.id, ...base }];
    case 'issue.status_changed':
    case 'issue.updated': {
      const out: TimelineEntry[] = [];
      const fields = Array.isArray(d.fields) ? d.fields.filter((f): f is string => typeof f === 'string') : [];
      const from = str(d.from);
      const to = str(d.to);
      if (a.action === 'issue.status_changed' && from && to) out.push({ kind: 'status', key: `${a.id}:status`, ...base, from, to });
      if (fields.includes('assigneeAgentId')) out.push({ kind: 'assignee', key: `${a.id}:assignee`, ...base, from: str(d.assigneeFrom), to: str(d.assigneeTo) });
      const rest = fields.filter((f) => !SHOWN_APART.has(f));
      if (rest.length) out.push({ kind: 'edited', key: `${a.id}:edited`, ...base, fields: rest });
      return out;
    }
    case 'issue.document_created':
    case 'issue.document_updated':
    case 'issue.document_deleted':
      return [
        {
          kind: 'document',
          key: a.id,
          ...base,
          change: a.action === 'issue.document_created' ? 'created' : a.action === 'issue.document_updated' ? 'updated' : 'deleted',
          docKey: str(d.key) ?? 'document',
          revisionNumber: num(d.revisionNumber),
        },
      ];
    case 'issue.checked_out':
    case 'issue.checkout_adopted':
    case 'issue.released':
      return [{ kind: 'checkout', key: a.id, ...base, change: a.action === 'issue.checked_out' ? 'checked_out' : a.action === 'issue.released' ? 'released' : 'adopted' }];
    default:
      // Comments come from their own list, labels and blockers have their own panels.
      return [];
  }
}

/** When a run belongs on the timeline: when it started, or when it was queued if it has not. */
export const runMoment = (r: HeartbeatRun): string => r.startedAt ?? r.queuedAt;

/**
 * One timeline, oldest first. Ties keep a stable order (by key) so entries never swap places
 * between refetches.
 */
export function mergeTimeline(s: TimelineSources): TimelineEntry[] {
  const all: TimelineEntry[] = [
    ...s.comments.map((comment): TimelineEntry => ({ kind: 'comment', key: `comment:${comment.id}`, at: comment.createdAt, comment })),
    ...s.runs.map((run): TimelineEntry => ({ kind: 'run', key: `run:${run.id}`, at: runMoment(run), run })),
    ...s.approvals.map((approval): TimelineEntry => ({ kind: 'approval', key: `approval:${approval.id}`, at: approval.createdAt, approval })),
    ...s.activity.flatMap(entriesOfActivity),
  ];
  return all.sort((a, b) => {
    const t = Date.parse(a.at) - Date.parse(b.at);
    return t !== 0 ? t : a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
  });
}

/** The newest `size` entries (still oldest first) and how many earlier ones are left out. */
export function visibleWindow<T>(entries: readonly T[], size: number): { visible: readonly T[]; hidden: number } {
  const hidden = Math.max(0, entries.length - size);
  return { visible: hidden ? entries.slice(hidden) : entries, hidden };
}
