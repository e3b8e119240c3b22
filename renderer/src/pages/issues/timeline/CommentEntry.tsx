import type { Comment } from '../../../api/types.js';
import { Markdown } from '../../../components/Markdown.js';
import { RelativeTime } from '../../../components/RelativeTime.js';
import type { Names } from './names.js';

export function CommentEntry({ comment: c, names }: { comment: Comment; names: Names }) {
  const author = c.authorType === 'agent' ? names.agent(c.authorAgentId) : c.authorType === 'board' ? 'You' : 'Headcount';
  return (
    <div className="card timeline-card" aria-label={`Comment by ${c.authorType === 'board' ? 'the board' : author}`}>
      <div className="timeline-meta">
        <strong>{author}</strong>
        <span>commented</span>
        <RelativeTime iso={c.createdAt} />
        {c.mentionedAgentIds.length ? <span>· woke {c.mentionedAgentIds.map((id) => names.agent(id)).join(', ')}</span> : null}
      </div>
      <Markdown>{c.body}</Markdown>
    </div>
  );
}
