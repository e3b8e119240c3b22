import { z } from 'zod';
import { Id, Name, NameText, Timestamp } from '../kernel/common-contract.js';
import { SecretUri } from '../secrets/refs.js';
import { CRM_ALLOWLIST_KINDS, CRM_CHANNELS, CRM_RULE_ACTIONS } from './schema.js';
import { isTimeZone } from './rule-matcher.js';
import { utf8Bytes } from './bytes.js';

export const CrmChannel = z.enum(CRM_CHANNELS).describe('email, calendar, network_a, messaging_a, social_a, dry-run');
export const Niche = z.string().trim().min(1).max(100);
export const MAX_TAG_BYTES = 64;
export const MAX_TAGS = 50;
export const Tag = z
  .string()
  .min(1, 'must not be empty')
  .refine((s) => utf8Bytes(s) <= MAX_TAG_BYTES, `must be at most ${MAX_TAG_BYTES} bytes of UTF-8`);
export const Tags = z
  .array(Tag)
  .max(MAX_TAGS, `at most ${MAX_TAGS} tags`)
  .refine((a) => new Set(a).size === a.length, 'must not repeat a tag');

// ---- Outboxes (spec 2.10)

export const Outbox = z
  .object({
    id: Id,
    companyId: Id,
    name: z.string(),
    channel: CrmChannel,
    niche: z.string().nullable(),
    secretRef: z.string().nullable().describe('secret://<secretId>:<version|latest>; the value is never returned'),
    config: z.record(z.string(), z.unknown()),
    dailyCap: z.int().nullable().describe('Sends per UTC day; null = the default of 50'),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    deletedAt: Timestamp.nullable(),
  })
  .meta({ id: 'CrmOutbox' });
export type Outbox = z.infer<typeof Outbox>;

const DailyCap = z.int().min(1).max(100_000);
const outboxFields = {
  name: Name.optional().describe('Default: the channel name'),
  niche: Niche.nullable().optional(),
  secretRef: SecretUri.nullable().optional().describe('Required for network_a, messaging_a, social_a (the API token). email/calendar: the SMTP password, or (config without host) the whole connection as an smtp:// or smtps:// URL. dry-run: allowed and never read'),
  config: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('email/calendar: {host, port, secure?, fromAddress, fromName?, username?}, or just {fromAddress, fromName?} with the connection URL in the secret; network_a/messaging_a/social_a: {baseUrl}; dry-run: anything'),
  dailyCap: DailyCap.nullable().optional(),
};
export const CreateOutboxBody = z.strictObject({ channel: CrmChannel, ...outboxFields });
export type CreateOutboxInput = z.infer<typeof CreateOutboxBody>;
export const UpdateOutboxBody = z.strictObject(outboxFields).describe('The channel cannot change: make a new outbox');
export type UpdateOutboxInput = z.infer<typeof UpdateOutboxBody>;
export const OutboxIdParams = z.strictObject({ companyId: Id, outboxId: Id });

// ---- Allowlist (our addition: the spec names the check, not its routes)

export const AllowlistEntry = z
  .object({
    id: Id,
    companyId: Id,
    channel: CrmChannel.nullable(),
    outboxId: Id.nullable(),
    kind: z.enum(CRM_ALLOWLIST_KINDS),
    value: z.string(),
    note: z.string().nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: 'CrmAllowlistEntry' });
export type AllowlistEntry = z.infer<typeof AllowlistEntry>;

export const CreateAllowlistEntryBody = z.strictObject({
  kind: z.enum(CRM_ALLOWLIST_KINDS).describe('address (e-mail), domain (example.com or *.example.com), phone (E.164), handle'),
  value: z.string().trim().min(1).max(320),
  channel: CrmChannel.nullable().optional().describe('Only this channel; null = every channel'),
  outboxId: Id.nullable().optional().describe('Only this outbox; null = every outbox'),
  note: z.string().max(500).nullable().optional(),
});
export type CreateAllowlistEntryInput = z.infer<typeof CreateAllowlistEntryBody>;
export const ListAllowlistQuery = z.strictObject({ channel: CrmChannel.optional(), outboxId: Id.optional() });
export const AllowlistEntryIdParams = z.strictObject({ companyId: Id, entryId: Id });

// ---- Approval rules (spec 2.10)

const HhMm = z.string().regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, 'must be HH:MM (00:00–23:59)');
export const TimeOfDay = z
  .strictObject({
    start: HhMm,
    end: HhMm,
    tz: z.string().min(1).max(100).refine(isTimeZone, 'must be an IANA time-zone name such as Europe/Paris'),
  })
  .describe('Local wall-clock window [start, end); start > end wraps midnight; start = end is all day');
export const RulePredicate = z
  .strictObject({
    channel: CrmChannel.nullable().optional(),
    niche: Niche.nullable().optional(),
    tags: Tags.optional().describe('All must be present on the message (its tags and its content piece tags)'),
    timeOfDay: TimeOfDay.nullable().optional(),
  })
  .describe('Every field given must hold; an empty predicate matches every message');
export const RuleAction = z.enum(CRM_RULE_ACTIONS);

export const ApprovalRule = z
  .object({
    id: Id,
    companyId: Id,
    name: z.string().nullable(),
    predicate: RulePredicate,
    action: RuleAction,
    priority: z.int(),
    enabled: z.boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'CrmApprovalRule' });
export type ApprovalRule = z.infer<typeof ApprovalRule>;

const Priority = z.int().min(-1_000_000).max(1_000_000).describe('Lower is evaluated first');
export const CreateRuleBody = z.strictObject({
  name: NameText(200).nullable().optional(),
  predicate: RulePredicate.default({}),
  action: RuleAction,
  priority: Priority,
  enabled: z.boolean().default(true),
});
export type CreateRuleInput = z.infer<typeof CreateRuleBody>;
export const UpdateRuleBody = z.strictObject({
  name: NameText(200).nullable().optional(),
  predicate: RulePredicate.optional(),
  action: RuleAction.optional(),
  priority: Priority.optional(),
  enabled: z.boolean().optional(),
});
export type UpdateRuleInput = z.infer<typeof UpdateRuleBody>;
export const RuleIdParams = z.strictObject({ companyId: Id, ruleId: Id });

export const PreviewRuleBody = z.strictObject({
  channel: CrmChannel,
  niche: Niche.nullable().optional(),
  tags: Tags.default([]),
  at: z.iso.datetime({ offset: true }).optional().describe('Instant the time-of-day window is checked at; default now'),
});
export type PreviewRuleInput = z.infer<typeof PreviewRuleBody>;
export const PreviewRuleResult = z
  .object({
    ruleId: Id,
    matches: z.boolean(),
    action: RuleAction,
    at: Timestamp,
    localTime: z.string().nullable().describe('HH:MM in the rule time zone, when it has a window'),
  })
  .meta({ id: 'CrmRulePreview' });
