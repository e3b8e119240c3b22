import { sqliteTable, text, integer, index, primaryKey } from 'drizzle-orm/sqlite-core';
import { timestamp, json } from '../db/columns.js';
import { companies } from '../companies/schema.js';
import { agents } from '../agents/schema.js';

export const RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'timed_out', 'cancelled', 'lost'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const ACTIVE_RUN_STATUSES: readonly RunStatus[] = ['queued', 'running'];

/** One heartbeat run. The transcript is a file under runs/; this row holds what is known about it. */
export const heartbeatRuns = sqliteTable(
  'heartbeat_runs',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    agentId: text('agent_id')
      .notNull()
      .references(() => agents.id),
    status: text('status', { enum: RUN_STATUSES }).notNull(),
    trigger: text('trigger').notNull(),
    /** Every wake reason this run answers (coalesced wakes add theirs). */
    reasons: json<{ reason: string; wakeRequestId: string | null; issueId: string | null }[]>('reasons').notNull(),
    taskIssueId: text('task_issue_id'),
    adapterType: text('adapter_type').notNull(),
    /** The command line with secret values redacted. */
    command: text('command'),
    pid: integer('pid'),
    /** Every process the run started, with its start time (so a reused pid is never killed at restart). */
    processes: json<{ pid: number; startTime: string | null }[]>('processes'),
    exitCode: integer('exit_code'),
    signal: text('signal'),
    timedOut: integer('timed_out', { mode: 'boolean' }).notNull().default(false),
    usage: json<Record<string, unknown>>('usage'),
    costMicroCents: integer('cost_micro_cents'),
    sessionParams: json<Record<string, unknown>>('session_params'),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    /** What the founder can do about the error (e.g. log the CLI in). */
    errorHint: text('error_hint'),
    /** The CLI's final answer, as the adapter parsed it. */
    summary: text('summary'),
    /** A rate or usage limit the run hit: no run of this agent starts before this time. */
    rateLimitResetAt: timestamp('rate_limit_reset_at'),
    transcriptBytes: integer('transcript_bytes').notNull().default(0),
    /** Set when retention deleted the transcript file; transcriptBytes keeps its size. */
    transcriptPurgedAt: timestamp('transcript_purged_at'),
    cancelReason: text('cancel_reason'),
    queuedAt: timestamp('queued_at').notNull(),
    startedAt: timestamp('started_at'),
    finishedAt: timestamp('finished_at'),
  },
  (t) => [
    index('heartbeat_runs_company_idx').on(t.companyId, t.queuedAt),
    index('heartbeat_runs_agent_idx').on(t.agentId, t.status),
    index('heartbeat_runs_status_idx').on(t.status),
    // The issue page lists the runs of one issue (GET …/heartbeat-runs?issueId=).
    index('heartbeat_runs_task_issue_idx').on(t.taskIssueId, t.queuedAt),
  ],
);
export type HeartbeatRunRow = typeof heartbeatRuns.$inferSelect;

/** Per-agent heartbeat schedule. Absent row = defaults (no schedule, skip when idle). */
export const agentHeartbeatSettings = sqliteTable('agent_heartbeat_settings', {
  agentId: text('agent_id')
    .primaryKey()
    .references(() => agents.id),
  intervalSec: integer('interval_sec'),
  enabled: integer('enabled', { mode: 'boolean' }).notNull().default(false),
  /** A scheduled heartbeat with nothing to do starts no process. */
  skipWhenIdle: integer('skip_when_idle', { mode: 'boolean' }).notNull().default(true),
  lastScheduledAt: timestamp('last_scheduled_at'),
  updatedAt: timestamp('updated_at').notNull(),
});

/** Session state an adapter asked to keep, per agent and task ('' when there is no task). */
export const agentSessions = sqliteTable(
  'agent_sessions',
  {
    agentId: text('agent_id')
      .notNull()
      .references(() => agents.id),
    taskKey: text('task_key').notNull(),
    params: json<Record<string, unknown>>('params').notNull(),
    runId: text('run_id'),
    updatedAt: timestamp('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.agentId, t.taskKey] })],
);

/** Instance settings (key → JSON value), e.g. the global cap on concurrent runs. */
export const instanceSettings = sqliteTable('instance_settings', {
  key: text('key').primaryKey(),
  value: json<unknown>('value').notNull(),
  updatedAt: timestamp('updated_at').notNull(),
});
