import { useRef, useState } from 'react';
import { useApi } from '../../app/api-context.js';
import { useAction } from '../../api/hooks.js';
import { keys } from '../../api/keys.js';
import type { Agent, Comment } from '../../api/types.js';
import { Button } from '../../components/Button.js';
import { MentionTextarea } from '../../components/MentionTextarea.js';
import { toastSuccess } from '../../stores/ui.js';
import { useShortcut } from '../../shortcuts/registry.js';

/** Writes a comment on the issue; @name mentions wake those agents. Ctrl/Cmd+Enter sends. */
export function CommentComposer({ issueId, agents }: { issueId: string; agents: readonly Agent[] }) {
  const api = useApi();
  const [body, setBody] = useState('');
  const form = useRef<HTMLFormElement>(null);
  useShortcut('r', 'Write a comment', () => form.current?.querySelector('textarea')?.focus(), { group: 'Issue' });
  const name = (id: string) => agents.find((a) => a.id === id)?.name ?? 'Agent';
  const post = useAction((text: string) => api.post<Comment>(`/api/issues/${issueId}/comments`, { body: text }), {
    errorTitle: 'Could not post the comment',
    invalidate: [keys.issue(issueId, 'comments')],
    onSuccess: (c) => {
      setBody('');
      if (c.mentionedAgentIds.length) toastSuccess(`Mentioned ${c.mentionedAgentIds.map(name).join(', ')}: waking up`);
    },
  });
  const candidates = agents.filter((a) => a.status !== 'terminated' && a.status !== 'draft');
  const send = () => {
    if (body.trim() && !post.isPending) post.mutate(body);
  };
  return (
    <form
      ref={form}
      className="stack-sm"
      onSubmit={(e) => {
        e.preventDefault();
        send();
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
          if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) {
            e.preventDefault();
            send();
          }
        }}
      />
      <div className="row">
        <span className="faint" style={{ fontSize: 12 }}>Markdown · Ctrl+Enter to send</span>
        <span className="spacer" />
        <Button type="submit" variant="primary" size="sm" busy={post.isPending} disabled={!body.trim()}>Comment</Button>
      </div>
    </form>
  );
}
