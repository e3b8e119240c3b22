import { z } from 'zod';
import { Id, Timestamp } from '../kernel/common-contract.js';
import { RUN_STATUSES } from './schema.js';
import { PutRetentionShape, RetentionSettingsShape } from '../retention/settings.js';
import { Limits, PutLimitsBody } from '../limits/settings.js';

export const RunStatus = z.enum(RUN_STATUSES).describe('queued -> running -> succeeded | failed | timed_out | cancelled | lost');

export const HeartbeatRun = z
  .object({
    id: Id,
    companyId: Id,
    agentId: Id,
    status: RunStatus,
    trigger: z.string(),
    reasons: z.array(z.object({ reason: z.string(), wakeRequestId: z.string().nullable(), issueId: z.string().nullable() })),
    taskIssueId: Id.nullable(),
    adapterType: z.string(),
    command: z.string().nullable().describe('Command line, secret values redacted'),
    pid: z.int().nullable(),
    exitCode: z.int().nullable(),
    signal: z.string().nullable(),
    timedOut: z.boolean(),
    usage: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe('provider, model, inputTokens, outputTokens, cachedInputTokens, costCents, costStatus — as the adapter reported them'),
    costCents: z.number().nullable().describe('Cost of this run; null when there was no usage or the model is unpriced'),
    costStatus: z
      .enum(['reported', 'priced', 'unpriced'])
      .nullable()
      .describe('reported by the CLI, priced from the model price table, or unpriced (usage known, cost unknown — not $0); null without usage'),
    sessionParams: z.record(z.string(), z.unknown()).nullable(),
    errorCode: z.string().nullable(),
    errorMessage: z.string().nullable(),
    errorHint: z.string().nullable().describe('What to do about the error, e.g. log the CLI in'),
    summary: z.string().nullable().describe("The CLI's final answer, when the adapter parsed one"),
    rateLimitResetAt: Timestamp.nullable().describe('The run hit a rate or usage limit: no run of this agent starts before this time'),
    transcriptBytes: z.int(),
    transcriptPurgedAt: Timestamp.nullable().describe('When transcript retention deleted the log (its size stays in transcriptBytes)'),
    cancelReason: z.string().nullable(),
    queuedAt: Timestamp,
    startedAt: Timestamp.nullable(),
    finishedAt: Timestamp.nullable(),
  })
  .meta({ id: 'HeartbeatRun' });

export const RunLogPage = z
  .object({
    records: z.array(z.object({ stream: z.enum(['stdout', 'stderr']), at: z.number(), data: z.string() })),
    nextOffset: z.int().describe('Pass as ?offset= to read on'),
    size: z.int(),
    done: z.boolean().describe('The run has finished and everything is read'),
  })
  .meta({ id: 'RunLogPage' });

export const ListRunsQuery = z.strictObject({
  agentId: Id.optional(),
  status: z.enum(RUN_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(200).optional(),
});

export const HeartbeatSettings = z
  .object({
    intervalSec: z.int().min(1).max(7 * 24 * 3600).nullable(),
    enabled: z.boolean(),
    skipWhenIdle: z.boolean(),
  })
  .meta({ id: 'HeartbeatSettings' });

export const PutHeartbeatSettingsBody = z.strictObject({
  intervalSec: z.int().min(1).max(7 * 24 * 3600).nullable().optional(),
  enabled: z.boolean().optional(),
  skipWhenIdle: z.boolean().optional(),
});

export const InstanceSettings = z
  .object({
    maxConcurrentRuns: z.int().min(1).max(64).describe(`Heartbeats running at once across all agents (default 4)`),
    ...RetentionSettingsShape,
    limits: Limits.describe('Every per-agent, per-run and per-company limit in force (docs/security.md)'),
  })
  .meta({ id: 'InstanceSettings' });
export const PutInstanceSettingsBody = z.strictObject({
  maxConcurrentRuns: z.int().min(1).max(64).optional(),
  ...PutRetentionShape,
  limits: PutLimitsBody.optional().describe('Only the limits given change'),
});
