import { useState } from 'react';
import { useApi } from '../../app/api-context.js';
import { useAction, useAgents } from '../../api/hooks.js';
import { keys } from '../../api/keys.js';
import { ISSUE_PRIORITIES, type CreateRoutineInput, type RoutineWithToken } from '../../api/types.js';
import { Button } from '../../components/Button.js';
import { Dialog } from '../../components/Dialog.js';
import { Input, Select, Textarea } from '../../components/Field.js';
import { agentOptions } from '../issues/IssueForm.js';
import { cronInWords } from './describe.js';

const localZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export function NewRoutineDialog({ companyId, open, onClose, onCreated }: { companyId: string; open: boolean; onClose: () => void; onCreated: (r: RoutineWithToken) => void }) {
  const api = useApi();
  const agents = useAgents(companyId);
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [assignee, setAssignee] = useState('');
  const [priority, setPriority] = useState('medium');
  const [kind, setKind] = useState<'schedule' | 'webhook' | 'api'>('schedule');
  const [cron, setCron] = useState('0 9 * * 1-5');
  const [timezone, setTimezone] = useState(localZone);
  const [catchUp, setCatchUp] = useState<'skip' | 'once' | 'all'>('skip');
  const [concurrency, setConcurrency] = useState<'skip_if_open' | 'always'>('skip_if_open');
  const create = useAction((body: CreateRoutineInput) => api.post<RoutineWithToken>(`/api/companies/${companyId}/routines`, body), {
    errorTitle: 'Could not create the routine',
    success: 'Routine created',
    invalidate: [keys.routines(companyId)],
    onSuccess: (r) => {
      onCreated(r);
      onClose();
      setTitle('');
      setDescription('');
    },
  });
  const submit = () =>
    create.mutate({
      title: title.trim(),
      description,
      assigneeAgentId: assignee,
      priority: priority as CreateRoutineInput['priority'],
      trigger: kind === 'schedule' ? { kind, cron: cron.trim(), timezone: timezone.trim() } : { kind },
      catchUp,
      concurrency,
      enabled: true,
    });
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="New routine"
      wide
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>Cancel</Button>
          <Button variant="primary" disabled={!title.trim() || !assignee} busy={create.isPending} onClick={submit}>Create routine</Button>
        </>
      }
    >
      <form className="form" onSubmit={(e) => (e.preventDefault(), submit())}>
        <Input label="Issue title *" value={title} onChange={(e) => setTitle(e.target.value)} autoFocus hint="Each firing creates one issue. {{date}}, {{time}} and, for webhooks, {{body.field}} are filled in." />
        <Textarea label="Issue description" rows={3} value={description} onChange={(e) => setDescription(e.target.value)} />
        <div className="grid-4">
          <Select label="Assignee *" value={assignee} onChange={(e) => setAssignee(e.target.value)} options={agentOptions(agents.data, 'Choose an agent')} />
          <Select label="Priority" value={priority} onChange={(e) => setPriority(e.target.value)} options={ISSUE_PRIORITIES.map((p) => ({ value: p, label: p }))} />
          <Select
            label="Trigger"
            value={kind}
            onChange={(e) => setKind(e.target.value as typeof kind)}
            options={[
              { value: 'schedule', label: 'Schedule' },
              { value: 'webhook', label: 'Webhook' },
              { value: 'api', label: 'API / by hand' },
            ]}
          />
          <Select
            label="While the last issue is open"
            value={concurrency}
            onChange={(e) => setConcurrency(e.target.value as typeof concurrency)}
            options={[
              { value: 'skip_if_open', label: 'Skip the firing' },
              { value: 'always', label: 'Create another issue' },
            ]}
          />
        </div>
        {kind === 'schedule' ? (
          <div className="grid-4">
            <Input label="Cron (5 fields)" value={cron} onChange={(e) => setCron(e.target.value)} hint={cronInWords(cron)} className="input mono" />
            <Input label="Timezone (IANA)" value={timezone} onChange={(e) => setTimezone(e.target.value)} />
            <Select
              label="Missed while offline"
              value={catchUp}
              onChange={(e) => setCatchUp(e.target.value as typeof catchUp)}
              options={[
                { value: 'skip', label: 'Skip them' },
                { value: 'once', label: 'Fire once' },
                { value: 'all', label: 'Fire each (max 10)' },
              ]}
            />
          </div>
        ) : null}
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}
