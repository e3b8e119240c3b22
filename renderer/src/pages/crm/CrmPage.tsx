import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { PageProps } from '../../app/page-props.js';
import { useApi } from '../../app/api-context.js';
import { useAction } from '../../api/hooks.js';
import { PageHeader } from '../../components/Page.js';
import { navigate } from '../../app/router.js';
import { useShortcut } from '../../shortcuts/registry.js';
import { useCrmSettings, type CrmSettings } from './crm-api.js';
import { ActivitiesTab } from './ActivitiesTab.js';
import { OutboxesTab } from './OutboxesTab.js';
import { AllowlistTab } from './AllowlistTab.js';
import { RulesTab } from './RulesTab.js';
import { ContentTab } from './ContentTab.js';
import { SequencesTab } from './SequencesTab.js';
import { BrandVoiceTab } from './BrandVoiceTab.js';
import './crm.css';

const TABS = [
  { id: 'activities', label: 'Activities', shortcut: '1' },
  { id: 'outboxes', label: 'Outboxes', shortcut: '2' },
  { id: 'allowlist', label: 'Allowlist', shortcut: '3' },
  { id: 'rules', label: 'Approval rules', shortcut: '4' },
  { id: 'content', label: 'Content', shortcut: '5' },
  { id: 'sequences', label: 'Sequences', shortcut: '6' },
  { id: 'brand-voice', label: 'Brand voice', shortcut: '7' },
] as const;
type Tab = (typeof TABS)[number]['id'];

/** Outbound work of the agents: what they want to send, through which outbox, to whom, under which rules. */
export function CrmPage({ companyId, query }: PageProps) {
  const raw = query.get('tab');
  const tab: Tab = TABS.some((t) => t.id === raw) ? (raw as Tab) : 'activities';
  const go = (t: Tab) => navigate('/crm', { tab: t }, true);
  useShortcut('1', 'CRM: activities', () => go('activities'), { group: 'CRM' });
  useShortcut('2', 'CRM: outboxes', () => go('outboxes'), { group: 'CRM' });
  useShortcut('3', 'CRM: allowlist', () => go('allowlist'), { group: 'CRM' });
  useShortcut('4', 'CRM: approval rules', () => go('rules'), { group: 'CRM' });
  useShortcut('5', 'CRM: content', () => go('content'), { group: 'CRM' });
  useShortcut('6', 'CRM: sequences', () => go('sequences'), { group: 'CRM' });
  useShortcut('7', 'CRM: brand voice', () => go('brand-voice'), { group: 'CRM' });
  return (
    <div className="page">
      <PageHeader title="CRM" subtitle="Messages your agents send: nothing leaves without an allowlisted recipient, an approval rule or your approval, and quota." actions={<DryRunSwitch />} />
      <div className="tabs" role="tablist" aria-label="CRM sections">
        {TABS.map((t) => (
          <button key={t.id} type="button" role="tab" aria-selected={tab === t.id} onClick={() => go(t.id)} title={`Press ${t.shortcut}`}>
            {t.label}
          </button>
        ))}
      </div>
      {tab === 'activities' ? <ActivitiesTab companyId={companyId} /> : null}
      {tab === 'outboxes' ? <OutboxesTab companyId={companyId} /> : null}
      {tab === 'allowlist' ? <AllowlistTab companyId={companyId} /> : null}
      {tab === 'rules' ? <RulesTab companyId={companyId} /> : null}
      {tab === 'content' ? <ContentTab companyId={companyId} /> : null}
      {tab === 'sequences' ? <SequencesTab companyId={companyId} /> : null}
      {tab === 'brand-voice' ? <BrandVoiceTab companyId={companyId} /> : null}
    </div>
  );
}

/** The global dry-run switch (instance setting): on, every send is recorded as sent_dryrun and nothing leaves. */
function DryRunSwitch() {
  const api = useApi();
  const settings = useCrmSettings();
  // Shown at once; put back if the server refuses.
  const [pending, setPending] = useState<boolean | null>(null);
  const qc = useQueryClient();
  const set = useAction(
    (forceDryRun: boolean) =>
      api
        .put<CrmSettings>('/api/admin/crm/settings', { forceDryRun })
        .then((s) => (qc.setQueryData(['system', 'crm-settings'], s), s))
        .finally(() => setPending(null)),
    {
      success: (s) => (s.forceDryRun ? 'Dry run on: nothing is sent' : 'Dry run off: approved messages are sent for real'),
      errorTitle: 'Could not change dry run',
    },
  );
  const on = pending ?? settings.data?.forceDryRun ?? true;
  return (
    <label className={`dry-run-switch${on ? ' is-on' : ''}`} title="Applies to every company on this computer">
      <input type="checkbox" role="switch" checked={on} disabled={!settings.data} onChange={(e) => {
          setPending(e.target.checked);
          set.mutate(e.target.checked);
        }} aria-describedby="dry-run-help" />
      <span>Dry run</span>
      <span id="dry-run-help" className="muted">{on ? 'nothing is sent' : 'sending for real'}</span>
    </label>
  );
}
