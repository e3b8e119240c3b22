import type { AllowlistEntry, ApprovalRule, ContentPiece, CrmActivity, Outbox } from './contract.js';
import type { CrmActivityRow, CrmAllowlistEntryRow, CrmApprovalRuleRow, CrmContentPieceRow, CrmOutboxRow } from './schema.js';

export const toOutbox = (r: CrmOutboxRow): Outbox => ({
  id: r.id,
  companyId: r.companyId,
  name: r.name,
  channel: r.channel,
  niche: r.niche,
  secretRef: r.secretRef,
  config: r.config,
  dailyCap: r.dailyCap,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
  deletedAt: r.deletedAt,
});

export const toAllowlistEntry = (r: CrmAllowlistEntryRow): AllowlistEntry => ({
  id: r.id,
  companyId: r.companyId,
  channel: r.channel,
  outboxId: r.outboxId,
  kind: r.kind,
  value: r.value,
  note: r.note,
  createdAt: r.createdAt,
});

export const toRule = (r: CrmApprovalRuleRow): ApprovalRule => ({
  id: r.id,
  companyId: r.companyId,
  name: r.name,
  predicate: r.predicate,
  action: r.action,
  priority: r.priority,
  enabled: r.enabled,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

export const toContentPiece = (r: CrmContentPieceRow): ContentPiece => ({
  id: r.id,
  companyId: r.companyId,
  issueId: r.issueId,
  title: r.title,
  summary: r.summary,
  sourcePath: r.sourcePath,
  sourceSha256: r.sourceSha256,
  tags: r.tags,
  channelIntent: r.channelIntent,
  niche: r.niche,
  frontmatter: r.frontmatter,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
  deletedAt: r.deletedAt,
});

export const toActivity = (r: CrmActivityRow): CrmActivity => ({
  id: r.id,
  companyId: r.companyId,
  status: r.status,
  dedupKey: r.dedupKey,
  outboxId: r.outboxId,
  channel: r.channel,
  to: r.contact,
  kind: r.kind,
  payload: r.payload,
  tags: r.tags,
  niche: r.niche,
  contentPieceId: r.contentPieceId,
  actorType: r.actorType,
  actorId: r.actorId,
  origin: r.origin,
  originRef: r.originRef,
  ruleId: r.ruleId,
  decision: r.decision,
  decidedAt: r.decidedAt,
  approvedAt: r.approvedAt,
  dryRun: r.dryRun,
  providerMessageId: r.providerMessageId,
  errorCode: r.errorCode,
  errorMessage: r.errorMessage,
  possiblySent: r.possiblySent,
  attempts: r.attempts,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
  sentAt: r.sentAt,
});
