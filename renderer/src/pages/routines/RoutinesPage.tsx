import { useMemo, useState } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { buildUrl, toApiError } from '../../api/client.js';
import type { PageProps } from '../../app/page-props.js';
import { useApi } from '../../app/api-context.js';
import { useAction, useAgents } from '../../api/hooks.js';
import { keys } from '../../api/keys.js';
import type { Routine, RoutineFiring, RoutineWithToken } from '../../api/types.js';
import { PageHeader, Loading, ErrorBox, Card } from '../../components/Page.js';
import { Pill, humanize } from '../../components/Pill.js';
import { Button } from '../../components/Button.js';
import { EmptyState } from '../../components/EmptyState.js';
import { Table } from '../../components/Table.js';
import { href } from '../../app/router.js';

import { toastSuccess } from '../../stores/ui.js';
import { NewRoutineDialog } from './RoutineForm.js';
import { fireTimeInWords, triggerInWords } from './describe.js';
import { RelativeTime } from '../../components/RelativeTime.js';
import { allArrayPages } from '../../api/array-pages.js';

const OUTCOME_TONE = { issue_created: 'green', pending: 'blue', skipped_missed: 'amber', skipped_open_issue: 'amber', cancelled: 'neutral' } as const;

/** The webhook URL, shown only right after create or rotate (the core keeps a hash, not the token). */
function WebhookUrl({ url }: { url: string }) {
  return (
    <div className="stack-sm">
      <div className="webhook-url">
        <code aria-label="Webhook URL">{url}</code>
        <Button size="sm" onClick={() => void navigator.clipboard?.writeText(url).then(() => toastSuccess('Webhook URL copied'))}>Copy</Button>
      </div>
      <span className="faint" style={{ fontSize: 12 }}>Shown once: copy it now. POST JSON to it; the body is stored with the firing.</span>
    </div>
  );
}

function Firings({ routine }: { routine: Routine }) {
  const api = useApi();
  // Newest first, 20 at a time; older pages follow the list's X-Next-Cursor on request.
  const firings = useInfiniteQuery({
    queryKey: keys.routine(routine.id, 'firings'),
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }) => {
      const res = await api.raw(buildUrl('', `/api/routines/${routine.id}/firings`, { limit: 20, after: pageParam }));
      if (!res.ok) throw await toApiError(res);
      return { items: (await res.json()) as RoutineFiring[], next: res.headers.get('x-next-cursor') ?? undefined };
    },
    getNextPageParam: (last) => last.next,
  });
  if (firings.isPending) return <Loading />;
  if (firings.isError) return <ErrorBox error={firings.error} />;
  return (
    <>
      <Table<RoutineFiring>
        label={`Firings of ${routine.title}`}
        rows={firings.data.pages.flatMap((p) => p.items)}
        rowKey={(f) => f.id}
        empty={<span className="faint">No firings yet: the routine fires on its schedule, or when its webhook is called.</span>}
        columns={[
          { key: 'at', header: 'Slot', render: (f) => <RelativeTime iso={f.slotAt ?? f.firedAt} /> },
          { key: 'trigger', header: 'Trigger', render: (f) => humanize(f.trigger) },
          { key: 'outcome', header: 'Outcome', render: (f) => <Pill tone={OUTCOME_TONE[f.outcome]}>{humanize(f.outcome)}</Pill> },
          { key: 'issue', header: 'Issue', render: (f) => (f.issueIdentifier ? <a href={href(`/issues/${f.issueIdentifier}`)}>{f.issueIdentifier}</a> : <span className="faint">{f.reason ?? '—'}</span>) },
        ]}
      />
      {firings.hasNextPage ? (
        <Button size="sm" variant="ghost" busy={firings.isFetchingNextPage} onClick={() => void firings.fetchNextPage()}>
          Show older firings
        </Button>
      ) : null}
    </>
  );
}

function RoutineCard({ routine, agentName, shownUrl, onUrl }: { routine: Routine; agentName: string; shownUrl: string | null; onUrl: (url: string) => void }) {
  const api = useApi();
  const [history, setHistory] = useState(false);
  const invalidate = [keys.routines(routine.companyId), keys.routine(routine.id)];
  const toggle = useAction(() => api.patch<Routine>(`/api/routines/${routine.id}`, { enabled: !routine.enabled }), { errorTitle: 'Could not change the routine', invalidate, success: routine.enabled ? 'Routine paused' : 'Routine resumed' });
  const fire = useAction(() => api.post<RoutineFiring>(`/api/routines/${routine.id}/fire`, {}), {
    errorTitle: 'Could not fire the routine',
    invalidate: [...invalidate, keys.issues(routine.companyId)],
    success: (f) => (f.issueIdentifier ? `Fired: ${f.issueIdentifier}` : `Not fired: ${f.reason ?? humanize(f.outcome)}`),
  });
  const rotate = useAction(() => api.post<RoutineWithToken>(`/api/routines/${routine.id}/webhook-token`, {}), { errorTitle: 'Could not rotate the URL', invalidate, onSuccess: (r) => r.webhookUrl && onUrl(r.webhookUrl) });
  const tz = routine.trigger.kind === 'schedule' ? routine.trigger.timezone : 'UTC';
  return (
    <Card>
      <div className="stack">
        <div className="row" style={{ alignItems: 'start' }}>
          <div className="grow">
            <div className="row" style={{ gap: 8 }}>
              <strong>{routine.title}</strong>
              {routine.enabled ? <Pill tone="green">active</Pill> : <Pill tone="neutral">paused</Pill>}
            </div>
            <div className="muted" style={{ fontSize: 13 }}>{triggerInWords(routine.trigger)} · assigned to {agentName} · {routine.trigger.kind === 'schedule' ? `missed slots: ${routine.catchUp === 'all' ? 'fire each (max 10)' : routine.catchUp === 'once' ? 'fire once' : 'skip'} · ` : ''}{routine.concurrency === 'skip_if_open' ? 'skips while its last issue is open' : 'always creates an issue'}</div>
          </div>
          <div className="row" style={{ gap: 6 }}>
            <Button size="sm" busy={fire.isPending} disabled={!routine.enabled} onClick={() => fire.mutate(undefined)}>Fire now</Button>
            <Button size="sm" busy={toggle.isPending} onClick={() => toggle.mutate(undefined)}>{routine.enabled ? 'Pause' : 'Resume'}</Button>
          </div>
        </div>
        {routine.trigger.kind === 'schedule' ? (
          routine.nextFireTimes.length > 0 ? (
            <div>
              <div className="muted" style={{ fontSize: 12 }}>Next five</div>
              <ol className="routine-times" aria-label={`Next fire times of ${routine.title}`}>
                {routine.nextFireTimes.map((t) => {
                  const w = fireTimeInWords(t, tz);
                  return (
                    <li key={t}>
                      {w.when} <span className="faint">({w.relative})</span>
                    </li>
                  );
                })}
              </ol>
            </div>
          ) : (
            <span className="faint">Paused: no upcoming firings.</span>
          )
        ) : null}
        {routine.trigger.kind === 'webhook' ? (
          shownUrl ? (
            <WebhookUrl url={shownUrl} />
          ) : (
            <div className="row">
              <span className="faint grow" style={{ fontSize: 13 }}>The webhook URL was shown when it was created. Rotate to get a new one (the old one stops working).</span>
              <Button size="sm" busy={rotate.isPending} onClick={() => rotate.mutate(undefined)}>Rotate URL</Button>
            </div>
          )
        ) : null}
        <div className="row">
          <Button size="sm" variant="ghost" aria-expanded={history} onClick={() => setHistory(!history)}>{history ? 'Hide history' : 'Firing history'}</Button>
          <span className="faint" style={{ fontSize: 12 }}>{routine.lastFiredAt ? <RelativeTime iso={routine.lastFiredAt} prefix="last fired" /> : 'never fired'}</span>
        </div>
        {history ? <Firings routine={routine} /> : null}
      </div>
    </Card>
  );
}

export function RoutinesPage({ companyId }: PageProps) {
  const api = useApi();
  const routines = useQuery({ queryKey: keys.routines(companyId), queryFn: () => allArrayPages<Routine>(api, `/api/companies/${companyId}/routines`) });
  const agents = useAgents(companyId);
  const names = useMemo(() => new Map((agents.data ?? []).map((a) => [a.id, a.name])), [agents.data]);
  const [creating, setCreating] = useState(false);
  const [urls, setUrls] = useState<Record<string, string>>({});
  return (
    <div className="page">
      <PageHeader title="Routines" subtitle="Recurring work: each firing creates one issue for an agent and wakes it." actions={<Button variant="primary" onClick={() => setCreating(true)}>New routine</Button>} />
      {routines.isPending ? (
        <Loading />
      ) : routines.isError ? (
        <ErrorBox error={routines.error} retry={() => void routines.refetch()} />
      ) : routines.data.length === 0 ? (
        <EmptyState title="No routines yet" action={<Button variant="primary" onClick={() => setCreating(true)}>New routine</Button>}>
          “Every weekday at 9, triage new bug reports”: a schedule, a webhook or a button that creates an issue for an agent.
        </EmptyState>
      ) : (
        <div className="stack" aria-label="Routines">
          {routines.data.map((r) => (
            <RoutineCard key={r.id} routine={r} agentName={names.get(r.assigneeAgentId) ?? 'an agent'} shownUrl={urls[r.id] ?? null} onUrl={(url) => setUrls((u) => ({ ...u, [r.id]: url }))} />
          ))}
        </div>
      )}
      <NewRoutineDialog companyId={companyId} open={creating} onClose={() => setCreating(false)} onCreated={(r) => r.webhookUrl && setUrls((u) => ({ ...u, [r.id]: r.webhookUrl! }))} />
    </div>
  );
}
