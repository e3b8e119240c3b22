import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useApi } from '../../app/api-context.js';
import { buildUrl, toApiError, type ApiClient } from '../../api/client.js';
import { useAction } from '../../api/hooks.js';
import { keys } from '../../api/keys.js';
import type { Agent, Comment } from '../../api/types.js';
import { Section } from '../../components/Page.js';
import { Button } from '../../components/Button.js';
import { MentionTextarea } from '../../components/MentionTextarea.js';
import { timeAgo } from '../../app/format.js';
import { toastSuccess } from '../../stores/ui.js';
import { Markdown } from '../../components/Markdown.js';

const PAGE = 100;

/** One page of the thread: the body is the spec's plain array, the next cursor a header. */
async function fetchPage(api: ApiClient, issueId: string, after: string | undefined): Promise<{ items: Comment[]; next: string | undefined }> {
  const res = await api.raw(buildUrl('', `/api/issues/${issueId}/comments`, { limit: PAGE, after }));
  if (!res.ok) throw await toApiError(res);
  return { items: (await res.json()) as Comment[], next: res.headers.get('x-next-cursor') ?? undefined };
}

/** Calls `onVisible` whenever the returned element scrolls into view. */
function useWhenVisible(onVisible: () => void, enabled: boolean) {
  const ref = useRef<HTMLDivElement>(null);
  const visible = useEffectEvent(onVisible);
  useEffect(() => {
    const el = ref.current;
    if (!el || !enabled || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && visible(), { rootMargin: '400px' });
    observer.observe(el);
    return () => observer.disconnect();
  }, [enabled]);
  return ref;
}

export function Comments({ issueId, agents }: { issueId: string; companyId: string; agents: Agent[] }) {
  const api = useApi();
  // Oldest first, 100 a page; the next page loads as the reader scrolls near the end of the list.
  const comments = useInfiniteQuery({
    queryKey: keys.issue(issueId, 'comments'),
    queryFn: ({ pageParam }) => fetchPage(api, issueId, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next,
  });
  const more = comments.hasNextPage && !comments.isFetchingNextPage;
  const sentinel = useWhenVisible(() => void comments.fetchNextPage(), more);
  const [body, setBody] = useState('');
  const post = useAction((text: string) => api.post<Comment>(`/api/issues/${issueId}/comments`, { body: text }), {
    errorTitle: 'Could not post the comment',
    invalidate: [keys.issue(issueId, 'comments')],
    onSuccess: (c) => {
      setBody('');
      if (c.mentionedAgentIds.length) toastSuccess(`Mentioned ${c.mentionedAgentIds.map((id) => name(id)).join(', ')}: waking up`);
    },
  });
  const name = (id: string | null) => (id ? agents.find((a) => a.id === id)?.name ?? 'Agent' : null);
  const candidates = agents.filter((a) => a.status !== 'terminated' && a.status !== 'draft');
  const list = comments.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Section title={`Comments${list.length ? ` (${list.length}${comments.hasNextPage ? '+' : ''})` : ''}`}>
      <div className="stack">
        {list.map((c) => (
          <div key={c.id} className="card" aria-label={`Comment by ${c.authorType === 'agent' ? name(c.authorAgentId) : 'the board'}`}>
            <div className="row muted" style={{ marginBottom: 4, fontSize: 12 }}>
              <strong style={{ color: 'var(--text)' }}>{c.authorType === 'agent' ? name(c.authorAgentId) : c.authorType === 'board' ? 'You' : 'System'}</strong>
              <span>{timeAgo(c.createdAt)}</span>
              {c.mentionedAgentIds.length ? <span>· woke {c.mentionedAgentIds.map((id) => name(id)).join(', ')}</span> : null}
            </div>
            <Markdown>{c.body}</Markdown>
          </div>
        ))}
        {comments.hasNextPage ? (
          <div ref={sentinel} className="row" style={{ justifyContent: 'center' }}>
            <Button size="sm" variant="ghost" busy={comments.isFetchingNextPage} onClick={() => void comments.fetchNextPage()}>Load more comments</Button>
          </div>
        ) : null}
        <form
          className="stack-sm"
          onSubmit={(e) => {
            e.preventDefault();
            if (body.trim()) post.mutate(body);
          }}
        >
          <MentionTextarea
            label="Add a comment"
            value={body}
            onChange={setBody}
            candidates={candidates}
            rows={3}
            placeholder="Write a comment. @name mentions an agent and wakes it."
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.metaKey || e.ctrlKey) && body.trim()) {
                e.preventDefault();
                post.mutate(body);
              }
            }}
          />
          <div className="row">
            <span className="faint" style={{ fontSize: 12 }}>Ctrl+Enter to send</span>
            <span className="spacer" />
            <Button type="submit" variant="primary" size="sm" busy={post.isPending} disabled={!body.trim()}>Comment</Button>
          </div>
        </form>
      </div>
    </Section>
  );
}
