import type { Approval } from '../../../api/types.js';
import { Pill, humanize } from '../../../components/Pill.js';
import { RelativeTime } from '../../../components/RelativeTime.js';
import { href } from '../../../app/router.js';
import type { Names } from './names.js';

const titleOf = (a: Approval): string => {
  const p = a.payload as Record<string, unknown>;
  if (typeof p.title === 'string' && p.title.trim()) return p.title;
  if (typeof p.name === 'string' && p.name.trim()) return `Hire ${p.name}`;
  return humanize(a.type);
};

export function ApprovalEntry({ approval: a, names }: { approval: Approval; names: Names }) {
  return (
    <div className="timeline-line">
      <strong>{a.requestedByAgentId ? names.agent(a.requestedByAgentId) : 'You'}</strong>
      <span>asked for approval:</span>
      <a href={href(`/approvals/${a.id}`)}>{titleOf(a)}</a>
      <Pill status={a.status} />
      <RelativeTime iso={a.createdAt} />
    </div>
  );
}
