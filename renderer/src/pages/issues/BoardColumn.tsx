import type { Issue, IssueStatus, Label } from '../../api/types.js';
import { useCursorList } from '../../api/paging.js';
import { keys } from '../../api/keys.js';
import { LoadMore } from '../../components/LoadMore.js';
import { Pill, titleOf } from '../../components/Pill.js';
import { href } from '../../app/router.js';
import { BlockedMarker, LabelChips } from './IssueLinks.js';

export interface BoardFilters {
  assigneeAgentId?: string | undefined;
  projectId?: string | undefined;
  labelId?: string | undefined;
  priority?: string | undefined;
}

/**
 * One status column of the board, paged on its own: a company with thousands of issues shows
 * each column's first issues at once, instead of one priority-sorted page of all statuses in
 * which a whole column could be missing (and read as "0").
 */
export function BoardColumn({
  companyId,
  status,
  filters,
  names,
  labels,
  dropping,
  onDragOverColumn,
  onDragLeaveColumn,
  onDropOnColumn,
  onDragIssue,
}: {
  companyId: string;
  status: IssueStatus;
  filters: BoardFilters;
  names: ReadonlyMap<string, string>;
  labels: readonly Label[] | undefined;
  dropping: boolean;
  onDragOverColumn: () => void;
  onDragLeaveColumn: () => void;
  onDropOnColumn: () => void;
  onDragIssue: (issue: Issue) => void;
}) {
  const column = useCursorList<Issue>(
    keys.issues(companyId),
    `/api/companies/${companyId}/issues`,
    { status, assigneeAgentId: filters.assigneeAgentId, projectId: filters.projectId, labelId: filters.labelId },
    50,
  );
  const list = column.items.filter((i) => !filters.priority || i.priority === filters.priority);
  // The count of what is loaded, and a "+" while the column has more pages.
  const count = `${list.length}${column.hasMore ? '+' : ''}`;
  return (
    <section
      className="board-col"
      aria-label={`${titleOf(status)}: ${count}`}
      aria-busy={column.isPending}
      data-drop={dropping}
      onDragOver={(e) => {
        e.preventDefault();
        onDragOverColumn();
      }}
      onDragLeave={onDragLeaveColumn}
      onDrop={(e) => {
        e.preventDefault();
        onDropOnColumn();
      }}
    >
      <div className="board-col-header">
        <span>{titleOf(status)}</span>
        <span className="faint">{column.isPending ? '…' : count}</span>
      </div>
      {column.isError ? <div className="muted">Could not load: {column.error.message}</div> : null}
      {list.map((i) => (
        <a key={i.id} className="board-card" href={href(`/issues/${i.identifier}`)} draggable onDragStart={() => onDragIssue(i)} aria-label={`${i.identifier} ${i.title}`}>
          <div className="row">
            <span className="faint mono">{i.identifier}</span>
            <span className="spacer" />
            <BlockedMarker issue={i} />
            {i.priority !== 'medium' ? <Pill status={i.priority} /> : null}
          </div>
          <div>{i.title}</div>
          <LabelChips ids={i.labelIds} labels={labels} />
          <div className="row muted" style={{ fontSize: 12 }}>
            <span className="grow ellipsis">{i.assigneeAgentId ? (names.get(i.assigneeAgentId) ?? 'Agent') : 'Unassigned'}</span>
            {i.checkoutAgentId ? <Pill tone="blue">checked out</Pill> : null}
          </div>
        </a>
      ))}
      {column.hasMore ? <LoadMore loading={column.loadingMore} onVisible={column.loadMore} label={`More ${titleOf(status).toLowerCase()}`} /> : null}
    </section>
  );
}
