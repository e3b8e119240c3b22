import { z } from 'zod';

/**
 * The catalogue of live events on a company's stream (`GET /api/companies/{id}/events`). Every
 * publisher and every consumer (the server's live feed, run-log streaming, OS notifications, the
 * board's live queries, `headcount run watch`) names kinds from here, so a misspelt kind is a compile
 * error rather than an event nobody hears.
 *
 * Most kinds are activity actions: the activity record and its event are written together
 * (activity/service.ts), so the stream says exactly what the activity log says.
 */
export const ACTIVITY_KINDS = [
  // agents and their keys
  'agent.created',
  'agent.drafted',
  'agent.hired',
  'agent.updated',
  'agent.terminated',
  'agent.paused',
  'agent.resumed',
  'agent.config_rolled_back',
  'agent.budget_paused',
  'agent.budget_resumed',
  'agent_key.created',
  'agent_key.revoked',
  // approvals
  'approval.created',
  'approval.resubmitted',
  'approval.commented',
  'approval.approved',
  'approval.rejected',
  'approval.revision_requested',
  // companies, budgets, costs
  'company.created',
  'company.updated',
  'company.imported',
  'company.archived',
  'company.unarchived',
  'company.paused',
  'company.resumed',
  'company.budget_exhausted',
  'budget.warning',
  'cost.recorded',
  'asset.uploaded',
  // issues
  'issue.created',
  'issue.updated',
  'issue.status_changed',
  'issue.deleted',
  'issue.commented',
  'issue.checked_out',
  'issue.checkout_adopted',
  'issue.released',
  'issue.blocker_added',
  'issue.blocker_removed',
  'issue.unblocked',
  'issue.labels_changed',
  'issue.attachment_added',
  'issue.attachment_deleted',
  'issue.document_created',
  'issue.document_updated',
  'issue.document_deleted',
  'issue.interaction_created',
  'issue.interaction_superseded',
  'issue.interaction_accepted',
  'issue.interaction_rejected',
  'issue.interaction_answered',
  // heartbeats and runs
  'heartbeat.invoked',
  'heartbeat.schedule_updated',
  'run.queued',
  'run.started',
  'run.succeeded',
  'run.failed',
  'run.timed_out',
  'run.cancelled',
  'run.lost',
  // projects, goals, labels, routines, secrets, workspaces, inbox, limits
  'project.created',
  'project.updated',
  'goal.created',
  'goal.updated',
  'label.created',
  'label.updated',
  'label.deleted',
  'routine.created',
  'routine.updated',
  'routine.paused',
  'routine.resumed',
  'routine.deleted',
  'routine.fired',
  'routine.firing_cancelled',
  'routine.firing_skipped',
  'routine.slots_missed',
  'routine.webhook_rotated',
  'secret.created',
  'secret.updated',
  'secret.deleted',
  'workspace.created',
  'workspace.merged',
  'workspace.merge_refused',
  'workspace.config_restored',
  'workspace.removed',
  'workspace.discarded',
  'inbox.dismissed',
  'limit.exceeded',
  // outreach (CRM)
  'crm.settings.updated',
  'crm.allowlist.added',
  'crm.allowlist.removed',
  'crm.brand_voice.checked',
  'crm.brand_voice.guide_updated',
  'crm.brand_voice.settings_updated',
  'crm.sequence.created',
  'crm.sequence.updated',
  'crm.sequence.deleted',
  'crm.sequence.enrolled',
  'crm.enrollment.stopped',
  'crm.enrollment.completed',
  'crm.enrollment.failed',
  'crm.activity.draft_pending_approval',
  'crm.activity.sending',
  'crm.activity.sent',
  'crm.activity.sent_dryrun',
  'crm.activity.blocked_by_allowlist',
  'crm.activity.blocked_by_quota',
  'crm.activity.failed',
  'crm.activity.rejected',
  'crm.activity.approved',
  'crm.content_piece.created',
  'crm.content_piece.updated',
  'crm.content_piece.deleted',
  'crm.outbox.created',
  'crm.outbox.updated',
  'crm.outbox.deleted',
  'crm.rule.created',
  'crm.rule.updated',
  'crm.rule.deleted',
] as const;

export const ActivityKind = z.enum(ACTIVITY_KINDS);
export type ActivityKind = z.infer<typeof ActivityKind>;

/** What every activity event carries: the record it describes, in one sentence, and who did it. */
export const ActivityEventData = z.object({
  activityId: z.string(),
  entityType: z.string(),
  entityId: z.string(),
  summary: z.string(),
  actorType: z.enum(['board', 'agent', 'system']),
  actorId: z.string().nullable(),
});
export type ActivityEventData = z.infer<typeof ActivityEventData>;

/** A piece of a live run's output, already redacted, at its byte offset in the transcript. */
export const RunLogEventData = z.object({
  runId: z.string(),
  agentId: z.string(),
  stream: z.enum(['stdout', 'stderr', 'system']),
  offset: z.number().int(),
  nextOffset: z.number().int(),
  data: z.string(),
});
export type RunLogEventData = z.infer<typeof RunLogEventData>;

/** Sent by the stream itself: the client missed events and must refetch before following again. */
export const StreamResetEventData = z.object({});

export const CompanyEventBody = z.discriminatedUnion('type', [
  z.object({ type: ActivityKind, data: ActivityEventData }),
  z.object({ type: z.literal('run.log'), data: RunLogEventData }),
  z.object({ type: z.literal('stream.reset'), data: StreamResetEventData }),
]);
export type CompanyEventBody = z.infer<typeof CompanyEventBody>;

export type EventKind = CompanyEventBody['type'];
export const EVENT_KINDS: readonly EventKind[] = [...ACTIVITY_KINDS, 'run.log', 'stream.reset'];

type DataByKind = { [K in ActivityKind]: ActivityEventData } & { 'run.log': RunLogEventData; 'stream.reset': z.infer<typeof StreamResetEventData> };
/** The payload type of one kind. */
export type EventData<K extends EventKind> = DataByKind[K];

export const isEventKind = (value: string): value is EventKind => (EVENT_KINDS as readonly string[]).includes(value);
