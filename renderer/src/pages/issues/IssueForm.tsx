import { useState } from 'react';
import { useApi } from '../../app/api-context.js';
import { useAction, useAgents, useProjects } from '../../api/hooks.js';
import { keys } from '../../api/keys.js';
import { ISSUE_PRIORITIES, type Issue, type IssueStatus } from '../../api/types.js';
import { Button } from '../../components/Button.js';
import { Dialog } from '../../components/Dialog.js';
import { Input, Select, Textarea } from '../../components/Field.js';
import { humanize } from '../../components/Pill.js';
import { navigate } from '../../app/router.js';

/** Statuses a new issue may start in (in_progress needs a checkout by an agent). */
const NEW_STATUSES: IssueStatus[] = ['backlog', 'todo', 'blocked', 'in_review'];

export function agentOptions(agents: { id: string; name: string; status: string }[] | undefined, none = 'Unassigned') {
  return [{ value: '', label: none }, ...(agents ?? []).filter((a) => a.status !== 'terminated' && a.status !== 'draft').map((a) => ({ value: a.id, label: a.name }))];
}

export function NewIssueDialog({ companyId, open, onClose, initialStatus = 'todo' }: { companyId: string; open: boolean; onClose: () => void; initialStatus?: IssueStatus }) {
  const api = useApi();
  const agents = useAgents(companyId);
  const projects = useProjects(companyId);
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [status, setStatus] = useState<IssueStatus>(initialStatus);
  const [priority, setPriority] = useState('medium');
  const [assignee, setAssignee] = useState('');
  const [projectId, setProjectId] = useState('');
  const create = useAction((body: Record<string, unknown>) => api.post<Issue>(`/api/companies/${companyId}/issues`, body), {
    errorTitle: 'Could not create the issue',
    success: (i) => `${i.identifier} created`,
    invalidate: [keys.issues(companyId)],
    onSuccess: (i) => {
      onClose();
      setTitle('');
      setDescription('');
      navigate(`/issues/${i.identifier}`);
    },
  });
  const submit = () =>
    create.mutate({ title: title.trim(), description, status, priority, assigneeAgentId: assignee || null, ...(projectId ? { projectId } : {}) });
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="New issue"
      wide
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>Cancel</Button>
          <Button variant="primary" disabled={!title.trim()} busy={create.isPending} onClick={submit}>Create issue</Button>
        </>
      }
    >
      <form className="form" onSubmit={(e) => (e.preventDefault(), submit())}>
        <Input label="Title *" value={title} onChange={(e) => setTitle(e.target.value)} autoFocus />
        <Textarea label="Description" rows={5} value={description} onChange={(e) => setDescription(e.target.value)} hint="Markdown. The assignee reads this at its heartbeat." />
        <div className="grid-4">
          <Select label="Status" value={status} onChange={(e) => setStatus(e.target.value as IssueStatus)} options={NEW_STATUSES.map((s) => ({ value: s, label: humanize(s) }))} />
          <Select label="Priority" value={priority} onChange={(e) => setPriority(e.target.value)} options={ISSUE_PRIORITIES.map((p) => ({ value: p, label: p }))} />
          <Select label="Assignee" value={assignee} onChange={(e) => setAssignee(e.target.value)} options={agentOptions(agents.data)} />
          <Select label="Project" value={projectId} onChange={(e) => setProjectId(e.target.value)} options={[{ value: '', label: 'None' }, ...(projects.data ?? []).map((p) => ({ value: p.id, label: p.name }))]} />
        </div>
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}
