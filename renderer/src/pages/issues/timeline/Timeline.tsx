import { useState } from 'react';
import type { Agent } from '../../../api/types.js';
import { Button } from '../../../components/Button.js';
import { Section, Loading, ErrorBox } from '../../../components/Page.js';
import { EmptyState } from '../../../components/EmptyState.js';
import { useIssueTimeline } from './useIssueTimeline.js';
import { namesFrom } from './names.js';
import { CommentEntry } from './CommentEntry.js';
import { RunEntry } from './RunEntry.js';
import { ApprovalEntry } from './ApprovalEntry.js';
import { ChangeEntry } from './ChangeEntry.js';
import { CommentComposer } from '../CommentComposer.js';
import { visibleWindow, type TimelineEntry } from './merge.js';
import './timeline.css';

const WINDOW = 200;

function Entry({ entry, names, issueRef }: { entry: TimelineEntry; names: ReturnType<typeof namesFrom>; issueRef: string }) {
  switch (entry.kind) {
    case 'comment':
      return <CommentEntry comment={entry.comment} names={names} />;
    case 'run':
      return <RunEntry run={entry.run} names={names} />;
    case 'approval':
      return <ApprovalEntry approval={entry.approval} names={names} />;
    default:
      return <ChangeEntry entry={entry} names={names} issueRef={issueRef} />;
  }
}

/** The issue's story, oldest first: comments, runs, changes, approvals and documents, then the composer. */
export function Timeline({ companyId, issueId, issueRef, agents }: { companyId: string; issueId: string; issueRef: string; agents: readonly Agent[] }) {
  const timeline = useIssueTimeline(companyId, issueId);
  const names = namesFrom(agents);
  // A long history renders its newest part; earlier entries come on request, a page at a time.
  const [shown, setShown] = useState(WINDOW);
  const { visible, hidden } = visibleWindow(timeline.entries, shown);
  return (
    <Section title="Timeline">
      {timeline.truncated ? <div className="faint" style={{ marginBottom: 8 }}>This issue has a long history; the oldest runs and changes are left out.</div> : null}
      {timeline.isPending ? (
        <Loading label="Loading the timeline" />
      ) : timeline.error ? (
        <ErrorBox error={timeline.error} retry={timeline.refetch} />
      ) : timeline.entries.length === 0 ? (
        <EmptyState title="Nothing has happened here yet">Assign an agent to start work, or write a comment below; @name wakes an agent.</EmptyState>
      ) : (
        <ol className="timeline" aria-label="Timeline">
          {hidden > 0 ? (
            <li className="timeline-item">
              <Button size="sm" variant="ghost" onClick={() => setShown(shown + WINDOW)}>Show {Math.min(hidden, WINDOW)} earlier of {hidden}</Button>
            </li>
          ) : null}
          {visible.map((e) => (
            <li key={e.key} className={`timeline-item timeline-${e.kind}`}>
              <Entry entry={e} names={names} issueRef={issueRef} />
            </li>
          ))}
        </ol>
      )}
      <div style={{ marginTop: 12 }}>
        <CommentComposer issueId={issueId} agents={agents} />
      </div>
    </Section>
  );
}
