import { useApi } from '../../../app/api-context.js';
import { useAction } from '../../../api/hooks.js';
import { keys } from '../../../api/keys.js';
import type { HeartbeatRun } from '../../../api/types.js';
import { Pill } from '../../../components/Pill.js';
import { Button } from '../../../components/Button.js';
import { RelativeTime } from '../../../components/RelativeTime.js';
import { duration, formatCents } from '../../../app/format.js';
import { href } from '../../../app/router.js';
import type { Names } from './names.js';

/** Runs that ended without doing their work; the board may start another. */
const RETRYABLE = new Set(['failed', 'timed_out', 'lost']);

function fallbackError(r: HeartbeatRun): string {
  if (r.status === 'lost') return 'The run was lost: Headcount stopped while it ran.';
  if (r.status === 'timed_out') return 'The run took longer than its timeout and was stopped.';
  if (r.exitCode !== null) return `The agent's CLI exited with code ${r.exitCode}; the transcript says why.`;
  if (r.signal) return `The agent's CLI was stopped by ${r.signal}.`;
  return 'The run ended without finishing; the transcript says why.';
}

/**
 * A heartbeat run of this issue. Retry wakes the same agent on this issue the way the board's
 * "Run now" does (POST /api/agents/{id}/heartbeat/invoke with the issue), so the new run shows up
 * here as its own entry.
 */
export function RunEntry({ run: r, names }: { run: HeartbeatRun; names: Names }) {
  const api = useApi();
  const retry = useAction(() => api.post<{ runId: string | null }>(`/api/agents/${r.agentId}/heartbeat/invoke`, { issueId: r.taskIssueId ?? undefined }), {
    errorTitle: 'Could not retry the run',
    success: 'Run queued again',
    invalidate: [keys.runs(r.companyId)],
  });
  const active = r.status === 'queued' || r.status === 'running';
  const failed = RETRYABLE.has(r.status);
  return (
    <div className={`card timeline-card${failed ? ' timeline-card-failed' : ''}`} aria-label={`Run by ${names.agent(r.agentId)}, ${r.status.replace(/_/g, ' ')}`}>
      <div className="timeline-meta">
        <strong>{names.agent(r.agentId)}</strong>
        <span>{r.status === 'queued' ? 'is queued' : active ? 'is working' : 'ran'}</span>
        <Pill status={r.status} />
        <RelativeTime iso={r.startedAt ?? r.queuedAt} />
        <span>· {duration(r.startedAt, r.finishedAt)}</span>
        {r.costStatus === 'unpriced' ? <span>· cost unknown</span> : r.costCents !== null ? <span>· {formatCents(r.costCents)}</span> : null}
        <span className="spacer" />
        <a href={href(`/runs/${r.id}`)}>Transcript</a>
      </div>
      {r.summary && !failed ? <div className="timeline-run-summary">{r.summary}</div> : null}
      {failed ? (
        <div className="timeline-run-error" role="alert">
          <div>
            <div>{r.errorCode ? <span className="mono">{r.errorCode}: </span> : null}{r.errorMessage ?? fallbackError(r)}</div>
            {r.errorHint ? <div className="muted">{r.errorHint}</div> : null}
          </div>
          <Button size="sm" busy={retry.isPending} onClick={() => retry.mutate(undefined)} aria-label={`Retry the run of ${names.agent(r.agentId)}`}>
            Retry
          </Button>
        </div>
      ) : null}
    </div>
  );
}
