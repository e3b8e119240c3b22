import { z } from 'zod';
import { Id, Name, PageQuery, Timestamp } from '../../kernel/common-contract.js';
import { Tags } from '../contract-config.js';
import { isTimeZone, parseHhMm } from '../rule-matcher.js';
import { ENROLLMENT_STATUSES, SEQUENCE_STATUSES } from './schema.js';

const HhMm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM (00:00–23:59)');
/** The end may be 24:00, the end of the local day, so a window can cover a whole day. */
const EndHhMm = z.string().regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, 'must be HH:MM (00:01–24:00)');

/** At most 30 days between steps (a longer pause is a new sequence), 0 = right after the previous step. */
export const MAX_STEP_DELAY_MINUTES = 30 * 24 * 60;

export const SequenceStep = z
  .strictObject({
    delayMinutes: z.int().min(0).max(MAX_STEP_DELAY_MINUTES).describe('Wait after the previous step (or the enrollment) before this one'),
    kind: z.string().min(1).max(50).optional(),
    payload: z.record(z.string(), z.unknown()).optional().describe('Channel payload as for POST /crm/send; absent = built from the content piece'),
    contentPieceId: Id.optional(),
    tags: Tags.optional(),
  })
  .refine((s) => s.payload !== undefined || s.contentPieceId !== undefined, { message: 'needs a payload or a contentPieceId', path: ['payload'] });
export type SequenceStepInput = z.infer<typeof SequenceStep>;

export const SendWindow = z
  .strictObject({
    weekdays: z
      .array(z.int().min(1).max(7))
      .min(1, 'needs at least one weekday')
      .max(7)
      .refine((a) => new Set(a).size === a.length, 'must not repeat a weekday')
      .describe('ISO weekdays: 1 = Monday … 7 = Sunday'),
    start: HhMm,
    end: EndHhMm,
    tz: z.string().max(100).refine(isTimeZone, 'must be an IANA time-zone name (e.g. Europe/Berlin)'),
  })
  .refine((w) => parseHhMm(w.start) < parseHhMm(w.end), { message: 'must be after start (windows do not cross midnight)', path: ['end'] })
  .describe('When steps may be sent, on the local clock of tz: [start, end) on the listed weekdays');

/** Round the clock every day in UTC: the window a sequence gets when none is given. */
export const ALWAYS_WINDOW = { weekdays: [1, 2, 3, 4, 5, 6, 7], start: '00:00', end: '24:00', tz: 'UTC' };

export const CreateSequenceBody = z.strictObject({
  name: Name,
  outboxId: Id,
  steps: z.array(SequenceStep).min(1, 'needs at least one step').max(50),
  sendWindow: SendWindow.optional(),
  status: z.enum(SEQUENCE_STATUSES).default('active'),
});
export type CreateSequenceInput = z.infer<typeof CreateSequenceBody>;

export const PatchSequenceBody = z
  .strictObject({
    name: Name.optional(),
    steps: z.array(SequenceStep).min(1).max(50).optional().describe('Enrollments keep their step index; steps past the new end complete them'),
    sendWindow: SendWindow.optional(),
    status: z.enum(SEQUENCE_STATUSES).optional(),
  })
  .describe('The outbox cannot change: make a new sequence');
export type PatchSequenceInput = z.infer<typeof PatchSequenceBody>;

export const Sequence = z
  .object({
    id: Id,
    companyId: Id,
    name: z.string(),
    outboxId: Id,
    steps: z.array(z.record(z.string(), z.unknown())),
    sendWindow: z.object({ weekdays: z.array(z.int()), start: z.string(), end: z.string(), tz: z.string() }),
    status: z.enum(SEQUENCE_STATUSES),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    deletedAt: Timestamp.nullable(),
  })
  .meta({ id: 'CrmSequence' });
export type Sequence = z.infer<typeof Sequence>;

export const EnrollBody = z.strictObject({
  contacts: z.array(z.string().trim().min(1).max(320)).min(1).max(500).describe('Recipients (address, phone or handle by channel)'),
  startAt: z.iso.datetime({ offset: true }).optional().describe('When the first step becomes due (default now); its delay counts from here'),
});
export type EnrollInput = z.infer<typeof EnrollBody>;

export const Enrollment = z
  .object({
    id: Id,
    companyId: Id,
    sequenceId: Id,
    contact: z.string(),
    status: z.enum(ENROLLMENT_STATUSES),
    stepIndex: z.int(),
    nextAt: Timestamp.nullable(),
    failures: z.int(),
    lastActivityId: Id.nullable(),
    lastOutcome: z.string().nullable(),
    stopReason: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'CrmSequenceEnrollment' });
export type Enrollment = z.infer<typeof Enrollment>;

export const EnrollResult = z.object({
  enrolled: z.array(Enrollment),
  skipped: z.array(z.object({ contact: z.string(), reason: z.string() })).describe('Contacts already live in this sequence'),
});

export const ListEnrollmentsQuery = z.strictObject({ status: z.enum(ENROLLMENT_STATUSES).optional(), limit: PageQuery.limit });

export const SequenceIdParams = z.strictObject({ companyId: Id, sequenceId: Id });
export const EnrollmentIdParams = z.strictObject({ companyId: Id, enrollmentId: Id });
