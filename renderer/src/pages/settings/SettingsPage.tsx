import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { PageProps } from '../../app/page-props.js';
import { useApi } from '../../app/api-context.js';
import { useAction } from '../../api/hooks.js';
import { keys } from '../../api/keys.js';
import type { z } from 'zod';
import type * as Heartbeat from '../../../../main/core/heartbeat/contract.js';
import { PageHeader, Loading, ErrorBox, Section, Card } from '../../components/Page.js';
import { Button } from '../../components/Button.js';
import { Input } from '../../components/Field.js';
import { useUi, type ThemeChoice } from '../../stores/ui.js';
import { ShortcutTable } from '../../shortcuts/ShortcutHelp.js';
import { useShortcutList } from '../../shortcuts/registry.js';
import { RelativeTime } from '../../components/RelativeTime.js';
import { navigate } from '../../app/router.js';
import { CompanySettings } from './CompanySettings.js';

import './settings.css';

type InstanceSettings = z.infer<typeof Heartbeat.InstanceSettings>;
interface DiskUsage {
  database: number;
  runs: number;
  attachments: number;
  backups: number;
  plugins: number;
  total: number;
  backupFiles: { name: string; bytes: number; createdAt: string; schema: string | null }[];
  companies: { companyId: string; name: string; transcriptBytes: number; transcriptBudgetBytes: number; attachmentBytes: number; attachmentBudgetBytes: number; workspaceBytes: number; workspaceBudgetBytes: number }[];
}
type Limits = InstanceSettings['limits'];
const MiB = 1024 * 1024;

export const bytes = (n: number) => (n >= 1024 ** 3 ? `${(n / 1024 ** 3).toFixed(2)} GB` : n >= 1024 ** 2 ? `${(n / 1024 ** 2).toFixed(1)} MB` : n >= 1024 ? `${Math.round(n / 1024)} KB` : `${n} B`);

const TABS = [
  { id: 'computer', label: 'This computer' },
  { id: 'company', label: 'Company' },
] as const;

/** Two tabs: the selected company's settings, and this computer's (runs, retention, limits, disk, theme, shortcuts). */
export function SettingsPage({ companyId, query }: PageProps) {
  const tab = query.get('tab') === 'company' ? 'company' : 'computer';
  return (
    <div className="page">
      <PageHeader title="Settings" subtitle={tab === 'company' ? "This company's name, budget, hiring default and brand voice." : "For this computer's Headcount: every company on it shares these."} />
      <div className="tabs" role="tablist" aria-label="Settings sections">
        {TABS.map((t) => (
          <button key={t.id} role="tab" aria-selected={t.id === tab} onClick={() => navigate('/settings', { tab: t.id === 'computer' ? undefined : t.id }, true)}>
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={tab === 'company' ? 'Company' : 'This computer'}>
        {tab === 'company' ? <CompanySettings companyId={companyId} /> : <InstanceSettingsPanel />}
      </div>
    </div>
  );
}

function InstanceSettingsPanel() {
  const api = useApi();
  const settings = useQuery({ queryKey: [...keys.system(), 'settings'], queryFn: () => api.get<InstanceSettings>('/api/settings') });
  const disk = useQuery({ queryKey: [...keys.system(), 'disk'], queryFn: () => api.get<DiskUsage>('/api/system/disk') });
  return (
    <>
      <div className="settings-grid">
        <Section title="Runs and retention">
          {settings.isPending ? <Loading /> : settings.isError ? <ErrorBox error={settings.error} retry={() => void settings.refetch()} /> : <InstanceForm current={settings.data} />}
        </Section>
        <Section title="Limits">
          {settings.isPending ? <Loading /> : settings.isError ? <ErrorBox error={settings.error} retry={() => void settings.refetch()} /> : <LimitsForm current={settings.data.limits} />}
        </Section>
        <Section title="Disk use">
          {disk.isPending ? <Loading /> : disk.isError ? <ErrorBox error={disk.error} retry={() => void disk.refetch()} /> : <Disk usage={disk.data} />}
        </Section>
        <Section title="Appearance">
          <ThemePicker />
        </Section>
        <Section title="Keyboard shortcuts">
          <Shortcuts />
        </Section>
      </div>
    </>
  );
}

function InstanceForm({ current }: { current: InstanceSettings }) {
  const api = useApi();
  const [runs, setRuns] = useState(String(current.maxConcurrentRuns));
  const [days, setDays] = useState(String(current.transcriptRetentionDays));
  const [backups, setBackups] = useState(String(current.backupRetentionCount));
  // New settings from the server reset the fields (adjusted during render).
  const [shown, setShown] = useState(current);
  if (shown !== current) {
    setShown(current);
    setRuns(String(current.maxConcurrentRuns));
    setDays(String(current.transcriptRetentionDays));
    setBackups(String(current.backupRetentionCount));
  }
  const save = useAction(
    () => api.put<InstanceSettings>('/api/settings', { maxConcurrentRuns: Number(runs), transcriptRetentionDays: Number(days), backupRetentionCount: Number(backups) }),
    { success: 'Settings saved', errorTitle: 'Could not save the settings', invalidate: [keys.system()] },
  );
  const dirty = runs !== String(current.maxConcurrentRuns) || days !== String(current.transcriptRetentionDays) || backups !== String(current.backupRetentionCount);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(undefined);
  };
  return (
    <Card>
      <form className="form" onSubmit={submit}>
        <Input label="Runs at once" type="number" min={1} max={64} value={runs} onChange={(e) => setRuns(e.target.value)} hint="Heartbeats running at the same time across all agents (1–64). More finish sooner but use more CPU and API quota." />
        <Input label="Keep transcripts (days)" type="number" min={0} value={days} onChange={(e) => setDays(e.target.value)} hint="Transcripts of runs that ended longer ago are deleted; the run and its cost stay. 0 keeps them forever." />
        <Input label="Database backups kept" type="number" min={0} value={backups} onChange={(e) => setBackups(e.target.value)} hint="Backups taken before each upgrade, newest first. 0 keeps all." />
        <div className="row">
          <Button variant="primary" type="submit" busy={save.isPending} disabled={!dirty}>Save</Button>
          {dirty ? <span className="muted">Unsaved changes</span> : null}
        </div>
      </form>
    </Card>
  );
}

/** The limits the board may change; bytes are edited in MiB. The fixed ones are listed below the form. */
const LIMIT_FIELDS: { key: keyof Limits & string; label: string; unit: number; min: number; hint: string }[] = [
  { key: 'transcriptMaxBytes', label: 'Transcript of one run (MiB)', unit: MiB, min: 1, hint: 'Past it the first and last halves are kept with a marker between; the middle is dropped.' },
  { key: 'transcriptCompanyBudgetBytes', label: 'Transcripts per company (MiB)', unit: MiB, min: 0, hint: "Past it the oldest finished runs' transcripts are deleted (the newest is kept). 0: no budget." },
  { key: 'attachmentCompanyBudgetBytes', label: 'Attachments per company (MiB)', unit: MiB, min: 0, hint: 'An upload past it is refused (413). 0: no budget.' },
  { key: 'workspaceCompanyBudgetBytes', label: 'Issue workspaces per company (MiB)', unit: MiB, min: 0, hint: "Past it, finished issues' workspaces with nothing unmerged or uncommitted are removed early, oldest first. 0: no budget." },
  { key: 'attachmentUploadsPerMinute', label: 'Uploads per agent per minute', unit: 1, min: 1, hint: 'More are refused with 429 and a time to retry. The board is never rate limited.' },
  { key: 'attachmentBytesPerMinute', label: 'Upload MiB per agent per minute', unit: MiB, min: 10, hint: 'At least the size of one file (10 MiB).' },
  { key: 'commentsPerMinute', label: 'Comments per agent per minute', unit: 1, min: 1, hint: 'More are refused with 429 and a time to retry.' },
];

function LimitsForm({ current }: { current: Limits }) {
  const api = useApi();
  const shown = (k: keyof Limits, unit: number) => String(Math.round(((current[k] as number) / unit) * 100) / 100);
  const initial = () => Object.fromEntries(LIMIT_FIELDS.map((f) => [f.key, shown(f.key, f.unit)]));
  const [values, setValues] = useState<Record<string, string>>(initial);
  const [shownLimits, setShownLimits] = useState(current);
  if (shownLimits !== current) {
    setShownLimits(current);
    setValues(initial());
  }
  const changed = LIMIT_FIELDS.filter((f) => values[f.key] !== shown(f.key, f.unit));
  const save = useAction(
    () => api.patch<InstanceSettings>('/api/settings', { limits: Object.fromEntries(changed.map((f) => [f.key, Math.round(Number(values[f.key]) * f.unit)])) }),
    { success: 'Limits saved', errorTitle: 'Could not save the limits', invalidate: [keys.system()] },
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(undefined);
  };
  return (
    <Card>
      <form className="form" onSubmit={submit} aria-label="Limits">
        {LIMIT_FIELDS.map((f) => (
          <Input key={f.key} label={f.label} type="number" min={f.min} step="any" value={values[f.key] ?? ''} onChange={(e) => setValues((v) => ({ ...v, [f.key]: e.target.value }))} hint={f.hint} />
        ))}
        <p className="muted" style={{ fontSize: 12 }}>
          Fixed: one file at most {bytes(current.attachmentMaxBytes)}, one comment at most {bytes(current.commentMaxBytes)}, comments listed {current.commentPageDefault} a page (at most {current.commentPageMax}), and a company holds at most {current.agentsPerCompany} agents (terminated ones included) and {current.projectsPerCompany} projects.
          An agent that hits a limit shows in the dashboard's "Needs you".
        </p>
        <div className="row">
          <Button variant="primary" type="submit" busy={save.isPending} disabled={changed.length === 0}>Apply limits</Button>
          {changed.length ? <span className="muted">Unsaved changes</span> : null}
        </div>
      </form>
    </Card>
  );
}

const ofBudget = (used: number, budget: number) => (budget > 0 ? `${bytes(used)} of ${bytes(budget)}` : `${bytes(used)} (no budget)`);

function Disk({ usage }: { usage: DiskUsage }) {
  const parts = [
    { label: 'Database', value: usage.database },
    { label: 'Run transcripts', value: usage.runs },
    { label: 'Attachments', value: usage.attachments },
    { label: 'Backups', value: usage.backups },
    { label: 'Adapter plugins', value: usage.plugins },
  ];
  return (
    <Card>
      <div className="disk-total"><strong>{bytes(usage.total)}</strong> <span className="muted">in the data folder</span></div>
      <div className="disk-bar" role="img" aria-label={parts.map((p) => `${p.label} ${bytes(p.value)}`).join(', ')}>
        {parts.map((p, i) => (usage.total > 0 && p.value > 0 ? <span key={p.label} className={`disk-seg disk-seg-${i}`} style={{ width: `${(p.value / usage.total) * 100}%` }} title={`${p.label}: ${bytes(p.value)}`} /> : null))}
      </div>
      <dl className="kv disk-kv">
        {parts.map((p, i) => (
          <div key={p.label} style={{ display: 'contents' }}>
            <dt><span className={`disk-dot disk-seg-${i}`} aria-hidden="true" /> {p.label}</dt>
            <dd>{bytes(p.value)}</dd>
          </div>
        ))}
      </dl>
      {usage.companies.length ? (
        <table className="disk-companies" aria-label="Disk use by company">
          <thead>
            <tr><th>Company</th><th>Transcripts</th><th>Attachments</th><th>Workspaces</th></tr>
          </thead>
          <tbody>
            {usage.companies.map((c) => (
              <tr key={c.companyId}>
                <td>{c.name}</td>
                <td className={c.transcriptBudgetBytes > 0 && c.transcriptBytes > 0.9 * c.transcriptBudgetBytes ? 'warn' : undefined}>{ofBudget(c.transcriptBytes, c.transcriptBudgetBytes)}</td>
                <td className={c.attachmentBudgetBytes > 0 && c.attachmentBytes > 0.9 * c.attachmentBudgetBytes ? 'warn' : undefined}>{ofBudget(c.attachmentBytes, c.attachmentBudgetBytes)}</td>
                <td className={c.workspaceBudgetBytes > 0 && c.workspaceBytes > 0.9 * c.workspaceBudgetBytes ? 'warn' : undefined}>{ofBudget(c.workspaceBytes, c.workspaceBudgetBytes)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {usage.backupFiles.length ? (
        <details className="disk-backups">
          <summary>{usage.backupFiles.length} backup file(s)</summary>
          <ul className="plain">
            {usage.backupFiles.map((b) => (
              <li key={b.name}><span className="mono">{b.name}</span> <span className="muted">{bytes(b.bytes)} · <RelativeTime iso={b.createdAt} />{b.schema ? ` · schema ${b.schema}` : ''}</span></li>
            ))}
          </ul>
        </details>
      ) : null}
    </Card>
  );
}

function ThemePicker() {
  const theme = useUi((s) => s.theme);
  const setTheme = useUi((s) => s.setTheme);
  const options: { value: ThemeChoice; label: string }[] = [
    { value: 'system', label: 'Follow the system' },
    { value: 'light', label: 'Light' },
    { value: 'dark', label: 'Dark' },
  ];
  return (
    <Card>
      <div role="radiogroup" aria-label="Theme" className="theme-options">
        {options.map((o) => (
          <label key={o.value} className="theme-option">
            <input type="radio" name="theme" value={o.value} checked={theme === o.value} onChange={() => setTheme(o.value)} /> {o.label}
          </label>
        ))}
      </div>
    </Card>
  );
}

function Shortcuts() {
  const list = useShortcutList();
  return (
    <Card>
      <p className="muted" style={{ marginTop: 0 }}>Press <kbd className="kbd">?</kbd> anywhere to see the shortcuts of the page you are on.</p>
      <ShortcutTable list={list} />
    </Card>
  );
}
