import { useEffect, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../app/api-context.js';
import { useAction } from '../../api/hooks.js';
import { errorMessage } from '../../api/client.js';
import { Loading, ErrorBox, Card } from '../../components/Page.js';
import { Button } from '../../components/Button.js';
import { Checkbox, Input, Select } from '../../components/Field.js';
import { EmptyState } from '../../components/EmptyState.js';
import { Pill } from '../../components/Pill.js';
import { CHANNELS, CHANNEL_LABEL, crmBase, crmKey, splitTags, type ApprovalRule, type RulePredicate, type RulePreview } from './crm-api.js';
import { allArrayPages } from '../../api/array-pages.js';

const ACTION_LABEL = { auto_approve: 'Send without asking', queue_for_manual: 'Ask me first' } as const;

export const describePredicate = (p: RulePredicate): string => {
  const parts: string[] = [];
  if (p.channel) parts.push(CHANNEL_LABEL[p.channel] ?? p.channel);
  if (p.niche) parts.push(`niche ${p.niche}`);
  if (p.tags?.length) parts.push(`tags ${p.tags.join(', ')}`);
  if (p.timeOfDay) parts.push(`${p.timeOfDay.start}–${p.timeOfDay.end} ${p.timeOfDay.tz}`);
  return parts.length ? parts.join(' · ') : 'every message';
};

/** Approval rules in evaluation order, an editor, and a live preview against a test message. */
export function RulesTab({ companyId }: { companyId: string }) {
  const api = useApi();
  const rules = useQuery({ queryKey: crmKey(companyId, 'rules'), queryFn: () => allArrayPages<ApprovalRule>(api, `${crmBase(companyId)}/approval-rules`) });
  const [selected, setSelected] = useState<string | 'new' | null>(null);
  // Nothing chosen yet: the first rule, as soon as the list arrives.
  if (selected === null && rules.data?.length) setSelected(rules.data[0]!.id);
  if (rules.isPending) return <Loading />;
  if (rules.isError) return <ErrorBox error={rules.error} retry={() => void rules.refetch()} />;
  const rule = rules.data.find((r) => r.id === selected) ?? null;
  return (
    <div className="rules-layout">
      <div className="stack-sm">
        <div className="row">
          <span className="muted grow">Checked top to bottom; the first that matches decides. No match: ask me first.</span>
          <Button size="sm" variant="primary" onClick={() => setSelected('new')}>New rule</Button>
        </div>
        {rules.data.length === 0 ? (
          <EmptyState title="No rules: every message waits for you">Add a rule to let some messages go out on their own, for example dry-run outboxes or a trusted niche.</EmptyState>
        ) : (
          <ol className="list rule-list" aria-label="Approval rules">
            {rules.data.map((r) => (
              <li key={r.id}>
                <button type="button" className="list-item rule-item" aria-current={r.id === selected ? 'true' : undefined} onClick={() => setSelected(r.id)}>
                  <span className="rule-priority mono muted">{r.priority}</span>
                  <span className="grow">
                    <span className="rule-name">{r.name || describePredicate(r.predicate)}</span>
                    {r.name ? <span className="muted rule-pred">{describePredicate(r.predicate)}</span> : null}
                  </span>
                  {!r.enabled ? <Pill>off</Pill> : null}
                  <Pill tone={r.action === 'auto_approve' ? 'green' : 'amber'}>{ACTION_LABEL[r.action]}</Pill>
                </button>
              </li>
            ))}
          </ol>
        )}
      </div>
      {selected === 'new' ? (
        <RuleEditor key="new" companyId={companyId} rule={null} onSaved={(r) => setSelected(r.id)} onDeleted={() => setSelected(null)} />
      ) : rule ? (
        <RuleEditor key={`${rule.id}:${rule.updatedAt}`} companyId={companyId} rule={rule} onSaved={(r) => setSelected(r.id)} onDeleted={() => setSelected(null)} />
      ) : null}
    </div>
  );
}

function RuleEditor({ companyId, rule, onSaved, onDeleted }: { companyId: string; rule: ApprovalRule | null; onSaved: (r: ApprovalRule) => void; onDeleted: () => void }) {
  const api = useApi();
  const p = rule?.predicate ?? {};
  const [name, setName] = useState(rule?.name ?? '');
  const [action, setAction] = useState<ApprovalRule['action']>(rule?.action ?? 'auto_approve');
  const [priority, setPriority] = useState(String(rule?.priority ?? 100));
  const [enabled, setEnabled] = useState(rule?.enabled ?? true);
  const [channel, setChannel] = useState<string>(p.channel ?? '');
  const [niche, setNiche] = useState(p.niche ?? '');
  const [tags, setTags] = useState((p.tags ?? []).join(', '));
  const [windowOn, setWindowOn] = useState(!!p.timeOfDay);
  const [start, setStart] = useState(p.timeOfDay?.start ?? '09:00');
  const [end, setEnd] = useState(p.timeOfDay?.end ?? '17:00');
  const [tz, setTz] = useState(p.timeOfDay?.tz ?? Intl.DateTimeFormat().resolvedOptions().timeZone);
  const invalidate = [crmKey(companyId, 'rules')];
  const body = () => ({
    name: name.trim() || null,
    action,
    priority: Number(priority),
    enabled,
    predicate: {
      channel: channel || null,
      niche: niche.trim() || null,
      tags: splitTags(tags),
      timeOfDay: windowOn ? { start, end, tz } : null,
    },
  });
  const save = useAction(() => (rule ? api.patch<ApprovalRule>(`${crmBase(companyId)}/approval-rules/${rule.id}`, body()) : api.post<ApprovalRule>(`${crmBase(companyId)}/approval-rules`, body())), {
    success: rule ? 'Rule saved' : 'Rule created',
    errorTitle: 'Could not save the rule',
    invalidate,
    onSuccess: onSaved,
  });
  const remove = useAction(() => api.delete(`${crmBase(companyId)}/approval-rules/${rule!.id}`), { success: 'Rule deleted', errorTitle: 'Could not delete the rule', invalidate, onSuccess: onDeleted });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(undefined);
  };
  const dirty = !rule || JSON.stringify(body()) !== JSON.stringify({ name: rule.name, action: rule.action, priority: rule.priority, enabled: rule.enabled, predicate: { channel: rule.predicate.channel ?? null, niche: rule.predicate.niche ?? null, tags: rule.predicate.tags ?? [], timeOfDay: rule.predicate.timeOfDay ?? null } });
  return (
    <div className="stack">
      <Card>
        <form className="form" onSubmit={submit} aria-label={rule ? 'Edit rule' : 'New rule'}>
          <div className="form-row">
            <Input label="Name" value={name} onChange={(e) => setName(e.target.value)} placeholder="Optional" />
            <Select label="Then" value={action} onChange={(e) => setAction(e.target.value as ApprovalRule['action'])} options={[{ value: 'auto_approve', label: ACTION_LABEL.auto_approve }, { value: 'queue_for_manual', label: ACTION_LABEL.queue_for_manual }]} />
          </div>
          <div className="form-row">
            <Select label="When the channel is" value={channel} onChange={(e) => setChannel(e.target.value)} options={[{ value: '', label: 'Any channel' }, ...CHANNELS.map((c) => ({ value: c, label: CHANNEL_LABEL[c] ?? c }))]} />
            <Input label="and the niche is" value={niche} onChange={(e) => setNiche(e.target.value)} placeholder="Any niche" />
          </div>
          <Input label="and it has every tag" value={tags} onChange={(e) => setTags(e.target.value)} placeholder="comma separated, e.g. follow-up, warm" />
          <Checkbox label="only at certain hours" checked={windowOn} onChange={(e) => setWindowOn(e.target.checked)} />
          {windowOn ? (
            <div className="form-row form-row-3">
              <Input label="From" type="time" value={start} onChange={(e) => setStart(e.target.value)} />
              <Input label="To" type="time" value={end} onChange={(e) => setEnd(e.target.value)} />
              <Input label="Time zone" value={tz} onChange={(e) => setTz(e.target.value)} placeholder="Europe/Paris" />
            </div>
          ) : null}
          <div className="form-row">
            <Input label="Priority" type="number" value={priority} onChange={(e) => setPriority(e.target.value)} hint="Lower is checked first." />
            <div style={{ alignSelf: 'center' }}><Checkbox label="Enabled" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /></div>
          </div>
          <div className="row">
            <Button variant="primary" type="submit" busy={save.isPending} disabled={!dirty}>{rule ? 'Save rule' : 'Create rule'}</Button>
            {rule ? <Button variant="ghost" busy={remove.isPending} onClick={() => remove.mutate(undefined)}>Delete</Button> : null}
            {rule && dirty ? <span className="muted">Unsaved: the preview below uses the saved rule until you save.</span> : null}
          </div>
        </form>
      </Card>
      {rule ? <RulePreviewPanel companyId={companyId} rule={rule} /> : null}
    </div>
  );
}

/** Asks the server whether the saved rule matches a test message, as the test message is edited. */
function RulePreviewPanel({ companyId, rule }: { companyId: string; rule: ApprovalRule }) {
  const api = useApi();
  const [channel, setChannel] = useState<string>(rule.predicate.channel ?? 'email');
  const [niche, setNiche] = useState(rule.predicate.niche ?? '');
  const [tags, setTags] = useState((rule.predicate.tags ?? []).join(', '));
  const [at, setAt] = useState('');
  const [result, setResult] = useState<{ ok: RulePreview } | { error: string } | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      const body = { channel, ...(niche.trim() ? { niche: niche.trim() } : {}), tags: splitTags(tags), ...(at ? { at: new Date(at).toISOString() } : {}) };
      api
        .request<RulePreview>('POST', `${crmBase(companyId)}/approval-rules/${rule.id}/preview`, { body, signal: controller.signal })
        .then((ok) => setResult({ ok }))
        .catch((err) => !controller.signal.aborted && setResult({ error: errorMessage(err) }));
    }, 250);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [api, companyId, rule.id, rule.updatedAt, channel, niche, tags, at]);
  return (
    <section className="card rule-preview" aria-label="Rule preview">
      <h3 className="rule-preview-title">Try a message</h3>
      <div className="form-row form-row-4">
        <Select label="Channel" value={channel} onChange={(e) => setChannel(e.target.value)} options={CHANNELS.map((c) => ({ value: c, label: CHANNEL_LABEL[c] ?? c }))} />
        <Input label="Niche" value={niche} onChange={(e) => setNiche(e.target.value)} />
        <Input label="Tags" value={tags} onChange={(e) => setTags(e.target.value)} placeholder="comma separated" />
        <Input label="At" type="datetime-local" value={at} onChange={(e) => setAt(e.target.value)} hint="Empty: now" />
      </div>
      <div className="preview-result" role="status" aria-live="polite">
        {!result ? (
          <span className="faint">Checking…</span>
        ) : 'error' in result ? (
          <span className="tone-red">{result.error}</span>
        ) : result.ok.matches ? (
          <span><Pill tone="green">matches</Pill> This rule decides: <strong>{ACTION_LABEL[result.ok.action]}</strong>{result.ok.localTime ? ` (it is ${result.ok.localTime} in the rule's time zone)` : ''}.</span>
        ) : (
          <span><Pill>no match</Pill> This rule does not apply; the next rule is checked{result.ok.localTime ? ` (it is ${result.ok.localTime} in the rule's time zone)` : ''}.</span>
        )}
      </div>
    </section>
  );
}
