import { useState } from 'react';
import type { PageProps } from '../../app/page-props.js';
import { useApi } from '../../app/api-context.js';
import { useAction } from '../../api/hooks.js';
import { keys } from '../../api/keys.js';
import { useCursorList } from '../../api/paging.js';
import { LoadMore } from '../../components/LoadMore.js';
import type { InboxItem } from '../../api/types.js';
import { PageHeader, Loading, ErrorBox, Card } from '../../components/Page.js';
import { Pill } from '../../components/Pill.js';
import { Button } from '../../components/Button.js';
import { EmptyState } from '../../components/EmptyState.js';
import { href, navigate } from '../../app/router.js';

import { Interactions } from '../issues/Interactions.js';
import { actionRequest, KIND_LABEL, KIND_TONE } from './actions.js';
import { RelativeTime } from '../../components/RelativeTime.js';

const ACTION_LABEL = { approve: 'Approve', reject: 'Reject', accept: 'Accept', retry: 'Retry run', answer: 'Answer', open: 'Open', dismiss: 'Dismiss' } as const;

function NotificationsSwitch() {
  // The desktop shell notifies natively (main/electron); the switch is for the browser board.
  const supported = typeof Notification !== 'undefined' && !('headcount' in window);
  const [permission, setPermission] = useState(supported ? Notification.permission : 'denied');
  if (!supported || permission === 'granted') return null;
  if (permission === 'denied') return <span className="faint" style={{ fontSize: 12 }}>Desktop notifications are blocked in this browser.</span>;
  return (
    <Button size="sm" onClick={() => void Notification.requestPermission().then(setPermission)}>
      Notify me of new items
    </Button>
  );
}

function Item({ item, companyId }: { item: InboxItem; companyId: string }) {
  const api = useApi();
  const [answering, setAnswering] = useState(false);
  const invalidate = [keys.inbox(companyId), keys.approvals(companyId), keys.runs(companyId), keys.issues(companyId)];
  const act = useAction(
    (action: 'approve' | 'reject' | 'accept' | 'retry') => {
      const req = actionRequest(companyId, item, action)!;
      return api.post(req.path, req.body);
    },
    { errorTitle: 'Could not do that', invalidate, success: (_r) => 'Done' },
  );
  const dismiss = useAction(() => api.post(`/api/companies/${companyId}/inbox/${encodeURIComponent(item.id)}/dismiss`, {}), { errorTitle: 'Could not dismiss', invalidate: [keys.inbox(companyId)] });
  return (
    <div role="listitem">
      <div className="inbox-item">
        <Pill tone={KIND_TONE[item.kind]}>{KIND_LABEL[item.kind]}</Pill>
        <div className="grow" style={{ minWidth: 0 }}>
          <a className="ellipsis" href={href(item.link.path)} style={{ display: 'block' }}>{item.title}</a>
          {item.summary ? <div className="muted ellipsis" style={{ fontSize: 12 }}>{item.summary}</div> : null}
        </div>
        <span className="faint" style={{ fontSize: 12, whiteSpace: 'nowrap' }}><RelativeTime iso={item.createdAt} /></span>
        <div className="actions">
          {item.actions.map((a) => {
            if (a === 'dismiss') return <Button key={a} size="sm" variant="ghost" busy={dismiss.isPending} onClick={() => dismiss.mutate(undefined)}>{ACTION_LABEL[a]}</Button>;
            if (a === 'open') return <Button key={a} size="sm" variant="ghost" onClick={() => navigate(item.link.path)}>{ACTION_LABEL[a]}</Button>;
            if (a === 'answer') return <Button key={a} size="sm" aria-expanded={answering} onClick={() => setAnswering(!answering)}>{ACTION_LABEL[a]}</Button>;
            return (
              <Button key={a} size="sm" variant={a === 'approve' || a === 'accept' ? 'primary' : a === 'reject' ? 'danger' : 'secondary'} busy={act.isPending && act.variables === a} onClick={() => act.mutate(a)}>
                {ACTION_LABEL[a]}
              </Button>
            );
          })}
        </div>
      </div>
      {answering && item.refs.issueId ? (
        <div className="inbox-answer">
          <Interactions issueId={item.refs.issueId} focusId={item.refs.interactionId ?? null} />
        </div>
      ) : null}
    </div>
  );
}

export function InboxPage({ companyId }: PageProps) {
  // Paged: a company with thousands of long-blocked issues has as many items (the count is all of them).
  const inbox = useCursorList<InboxItem>(keys.inbox(companyId), `/api/companies/${companyId}/inbox`);
  // Every page carries the count of all open items; the newest page's is current.
  const total = (inbox.data?.pages[0] as { count?: number } | undefined)?.count;
  return (
    <div className="page">
      <PageHeader title="Inbox" subtitle="Everything waiting on you, newest first. Items leave by themselves once dealt with anywhere." actions={<NotificationsSwitch />} />
      {inbox.isPending ? (
        <Loading />
      ) : inbox.isError ? (
        <ErrorBox error={inbox.error} retry={() => void inbox.refetch()} />
      ) : inbox.items.length === 0 ? (
        <EmptyState title="Nothing waiting on you">Approvals, agent questions, failed runs, budget alerts, long-blocked issues and CRM drafts show up here.</EmptyState>
      ) : (
        <Card className="card-flush">
          <div className="inbox-list" role="list" aria-label="Inbox">
            {inbox.items.map((item) => (
              <Item key={item.id} item={item} companyId={companyId} />
            ))}
          </div>
          {inbox.hasMore ? (
            <LoadMore loading={inbox.loadingMore} onVisible={inbox.loadMore} label={total ? `Older items (${inbox.items.length} of ${total} shown)` : 'Older items'} />
          ) : null}
        </Card>
      )}
    </div>
  );
}
