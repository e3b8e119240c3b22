import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { useApi } from '../../app/api-context.js';
import type * as Crm from '../../../../main/core/crm/contract.js';
import type * as Seq from '../../../../main/core/crm/sequences/contract.js';
import { allArrayPages } from '../../api/array-pages.js';

export type Outbox = Crm.Outbox;
export type AllowlistEntry = Crm.AllowlistEntry;
export type ApprovalRule = Crm.ApprovalRule;
export type ContentPiece = Crm.ContentPiece;
export type CrmActivity = Crm.CrmActivity;
export type QuotaRow = z.infer<typeof Crm.QuotaRow>;
export type CrmSettings = z.infer<typeof Crm.CrmSettings>;
export type RulePreview = z.infer<typeof Crm.PreviewRuleResult>;
export type RulePredicate = z.infer<typeof Crm.RulePredicate>;
export type BulkApproveResult = z.infer<typeof Crm.BulkApproveResult>;
export type Sequence = Seq.Sequence;
export type Enrollment = Seq.Enrollment;

// Value lists of main/core/crm/schema.ts (the renderer imports contract types only).
export const CHANNELS = ['email', 'calendar', 'network_a', 'messaging_a', 'social_a', 'dry-run'] as const;
export const ALLOWLIST_KINDS = ['address', 'domain', 'phone', 'handle'] as const;
export const ACTIVITY_STATUSES = ['draft_pending_approval', 'sent', 'sent_dryrun', 'blocked_by_allowlist', 'blocked_by_quota', 'failed', 'sending', 'rejected'] as const;

export const CHANNEL_LABEL: Record<string, string> = {
  email: 'E-mail',
  calendar: 'Calendar invite',
  network_a: 'Professional network',
  messaging_a: 'Messaging',
  social_a: 'Social',
  'dry-run': 'Dry run',
};

/** Query keys under the company, so CRM events (which invalidate the whole company) keep them live. */
export const crmKey = (cid: string, part: string, extra?: unknown) => (extra === undefined ? ['company', cid, 'crm', part] : ['company', cid, 'crm', part, extra]);
export const crmBase = (cid: string) => `/api/companies/${cid}/crm`;

export function useOutboxes(cid: string) {
  const api = useApi();
  return useQuery({ queryKey: crmKey(cid, 'outboxes'), queryFn: () => allArrayPages<Outbox>(api, `${crmBase(cid)}/outboxes`) });
}

export function useQuota(cid: string) {
  const api = useApi();
  return useQuery({ queryKey: crmKey(cid, 'quota'), queryFn: () => allArrayPages<QuotaRow>(api, `${crmBase(cid)}/quota`) });
}

export function useCrmSettings() {
  const api = useApi();
  return useQuery({ queryKey: ['system', 'crm-settings'], queryFn: () => api.get<CrmSettings>('/api/admin/crm/settings') });
}

export const splitTags = (s: string) => [...new Set(s.split(',').map((t) => t.trim()).filter(Boolean))];
