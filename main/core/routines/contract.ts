import { z } from 'zod';
import { Id, Timestamp } from '../kernel/common-contract.js';
import { IssuePriority, IssueStatus, AgentRef } from '../issues/contract.js';
import { CATCH_UP_POLICIES, CONCURRENCY_POLICIES, FIRING_OUTCOMES, FIRING_TRIGGERS } from './schema.js';

export const RoutineTrigger = z
  .discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('schedule'),
      cron: z.string().trim().min(9).max(200).describe('Five fields: minute hour day-of-month month day-of-week, e.g. "0 9 * * 1-5"'),
      timezone: z.string().trim().min(1).max(64).describe('IANA timezone, e.g. Europe/Berlin'),
    }),
    z.strictObject({ kind: z.literal('webhook').describe('POST /api/routine-hooks/{token}; the token is shown once') }),
    z.strictObject({ kind: z.literal('api').describe('POST /api/routines/{routineId}/fire') }),
  ])
  .meta({ id: 'RoutineTrigger' });
export type RoutineTrigger = z.infer<typeof RoutineTrigger>;

export const CatchUp = z.enum(CATCH_UP_POLICIES).describe('Slots missed while the core was not running: skip (recorded), once (one firing), all (each, at most 10)');
export const Concurrency = z.enum(CONCURRENCY_POLICIES).describe('skip_if_open: no new issue while the last one is not done or cancelled');

const Title = z.string().trim().min(1, 'must not be empty').max(300).describe('Template: {{date}}, {{time}}, {{slot}}, {{firedAt}}, {{body.<path>}}');
const Description = z.string().max(50_000);

export const CreateRoutineBody = z.strictObject({
  title: Title,
  description: Description.optional(),
  assigneeAgentId: AgentRef,
  projectId: Id.nullable().optional(),
  priority: IssuePriority.optional(),
  trigger: RoutineTrigger,
  catchUp: CatchUp.default('skip'),
  concurrency: Concurrency.default('skip_if_open'),
  enabled: z.boolean().default(true),
});
export type CreateRoutineInput = z.infer<typeof CreateRoutineBody>;

export const PatchRoutineBody = z.strictObject({
  title: Title.optional(),
  description: Description.optional(),
  assigneeAgentId: AgentRef.optional(),
  projectId: Id.nullable().optional(),
  priority: IssuePriority.optional(),
  trigger: RoutineTrigger.optional(),
  catchUp: CatchUp.optional(),
  concurrency: Concurrency.optional(),
  enabled: z.boolean().optional().describe('false pauses; slots while paused are not fired'),
});
export type PatchRoutineInput = z.infer<typeof PatchRoutineBody>;

export const Routine = z
  .object({
    id: Id,
    companyId: Id,
    title: z.string(),
    description: z.string(),
    assigneeAgentId: Id,
    projectId: Id.nullable(),
    priority: IssuePriority,
    trigger: RoutineTrigger,
    catchUp: CatchUp,
    concurrency: Concurrency,
    enabled: z.boolean(),
    nextFireTimes: z.array(Timestamp).describe('The next five slots of a schedule (none when paused or not a schedule)'),
    hasWebhookToken: z.boolean(),
    lastFiredAt: Timestamp.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Routine' });
export type Routine = z.infer<typeof Routine>;

export const RoutineWithToken = Routine.extend({
  webhookToken: z.string().nullable().describe('Shown only in this response (create, rotate)'),
  webhookUrl: z.string().nullable(),
}).meta({ id: 'RoutineWithToken' });
export type RoutineWithToken = z.infer<typeof RoutineWithToken>;

export const RoutineFiring = z
  .object({
    id: Id,
    routineId: Id,
    slotAt: Timestamp.nullable(),
    slotKey: z.string().nullable().describe('Wall-clock time of the slot in the routine timezone; unique per routine'),
    trigger: z.enum(FIRING_TRIGGERS),
    outcome: z.enum(FIRING_OUTCOMES),
    reason: z.string().nullable(),
    issueId: Id.nullable(),
    issueIdentifier: z.string().nullable(),
    issueStatus: IssueStatus.nullable(),
    payload: z.unknown().nullable().describe('The webhook body, stored with the firing'),
    firedAt: Timestamp,
  })
  .meta({ id: 'RoutineFiring' });
export type RoutineFiring = z.infer<typeof RoutineFiring>;

export const RoutineIdParams = z.strictObject({ routineId: Id });
export const HookParams = z.strictObject({ token: z.string().min(10).max(200) });
export const FiringsQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  after: z.string().max(200).optional().describe('The X-Next-Cursor of the previous page'),
});
