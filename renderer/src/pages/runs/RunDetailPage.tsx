import { useQuery } from '@tanstack/react-query';
import type { PageProps } from '../../app/page-props.js';
import { useApi } from '../../app/api-context.js';
import { useAction, useAgents } from '../../api/hooks.js';
import { keys } from '../../api/keys.js';
import { ACTIVE_RUN_STATUSES, type HeartbeatRun } from '../../api/types.js';
import { PageHeader, Section, Loading, ErrorBox, Card } from '../../components/Page.js';
import { Pill, humanize } from '../../components/Pill.js';
import { Button } from '../../components/Button.js';
import { duration, formatCents } from '../../app/format.js';
import { href } from '../../app/router.js';
import { TranscriptPanel } from '../../transcript/TranscriptPanel.js';
import { useShortcut } from '../../shortcuts/registry.js';
import { RelativeTime } from '../../components/RelativeTime.js';
import { adapterLabel } from '../../app/adapter-label.js';

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** One run: what woke it, what it cost, and its transcript live (parsed or as a terminal). */
export function RunDetailPage({ companyId, params }: PageProps) {
  const api = useApi();
  const runId = params.runId!;
  const run = useQuery({ queryKey: keys.run(runId), queryFn: () => api.get<HeartbeatRun>(`/api/heartbeat-runs/${runId}`) });
  const agents = useAgents(companyId);
  const cancel = useAction(() => api.post<HeartbeatRun>(`/api/heartbeat-runs/${runId}/cancel`), { success: 'Run cancelled', errorTitle: 'Could not cancel', invalidate: [keys.run(runId), keys.runs(companyId)] });
  const r = run.data;
  const active = !!r && ACTIVE_RUN_STATUSES.includes(r.status);
  useShortcut('x', 'Cancel this run', () => active && !cancel.isPending && cancel.mutate(undefined), { group: 'Run', enabled: active });
  if (run.isPending) return <div className="page"><Loading /></div>;
  if (run.isError || !r) return <div className="page"><ErrorBox error={run.error} retry={() => void run.refetch()} /></div>;
  const agent = agents.data?.find((a) => a.id === r.agentId);
  const usage = r.usage ?? {};
  const tokensIn = num(usage.inputTokens);
  const tokensOut = num(usage.outputTokens);
  return (
    <div className="page">
      <div className="muted" style={{ marginBottom: 6 }}><a href={href('/runs')}>Runs</a></div>
      <PageHeader
        title={<span className="row">{agent ? agent.name : 'Run'} <Pill status={r.status} /></span>}
        subtitle={<>{humanize(r.trigger)} · {adapterLabel(r.adapterType)} · <RelativeTime iso={r.startedAt ?? r.queuedAt} /></>}
        actions={active ? <Button variant="danger" busy={cancel.isPending} onClick={() => cancel.mutate(undefined)} title="x">Cancel run</Button> : null}
      />
      <div className="grid-4" style={{ marginBottom: 16 }}>
        <Card><div className="stat-label">Duration</div><div>{duration(r.startedAt, r.finishedAt)}</div></Card>
        <Card>
          <div className="stat-label">Cost</div>
          <div>{r.costStatus === 'unpriced' ? 'Unpriced' : formatCents(r.costCents)}</div>
          {tokensIn !== null || tokensOut !== null ? <div className="muted" style={{ fontSize: 12 }}>{(tokensIn ?? 0).toLocaleString()} in · {(tokensOut ?? 0).toLocaleString()} out{typeof usage.model === 'string' ? ` · ${usage.model}` : ''}</div> : null}
        </Card>
        <Card><div className="stat-label">Exit</div><div>{r.exitCode ?? r.signal ?? (active ? 'running' : '—')}</div></Card>
        <Card><div className="stat-label">Task</div><div>{r.taskIssueId ? <a href={href(`/issues/${r.taskIssueId}`)}>Open the issue</a> : '—'}</div></Card>
      </div>
      {r.errorMessage ? (
        <div className="error-box" role="alert" style={{ marginBottom: 16, flexDirection: 'column', alignItems: 'flex-start' }}>
          <span>{r.errorCode ? `${r.errorCode}: ` : ''}{r.errorMessage}</span>
          {r.errorHint ? <span className="muted">{r.errorHint}</span> : null}
        </div>
      ) : null}
      {r.summary ? <Card className="run-summary"><div className="stat-label">Summary</div><div style={{ whiteSpace: 'pre-wrap' }}>{r.summary}</div></Card> : null}
      {r.command ? <div className="mono muted ellipsis" style={{ margin: '12px 0' }} title={r.command}>$ {r.command}</div> : null}
      <Section title="Transcript">
        <TranscriptPanel runId={runId} adapterType={r.adapterType} active={active} purged={!!r.transcriptPurgedAt} />
      </Section>
    </div>
  );
}
