import type { ReactNode } from 'react';
import { Pill } from '../../../components/Pill.js';
import { RelativeTime } from '../../../components/RelativeTime.js';
import type { TimelineEntry } from './merge.js';
import type { Names } from './names.js';
import { href } from '../../../app/router.js';

type Change = Exclude<TimelineEntry, { kind: 'comment' | 'run' | 'approval' }>;

const FIELD_NAMES: Record<string, string> = { title: 'the title', description: 'the description', priority: 'the priority', projectId: 'the project', goalId: 'the goal', parentId: 'the parent', billingCode: 'the billing code' };

function sentence(e: Change, names: Names, issueRef: string): ReactNode {
  switch (e.kind) {
    case 'created':
      return 'created the issue';
    case 'status':
      return <>moved it from <Pill status={e.from} /> to <Pill status={e.to} /></>;
    case 'assignee':
      return e.to ? <>assigned it to <strong>{names.agent(e.to)}</strong>{e.from ? <> (was {names.agent(e.from)})</> : null}</> : <>unassigned {names.agent(e.from)}</>;
    case 'edited':
      return `edited ${e.fields.map((f) => FIELD_NAMES[f] ?? f).join(', ')}`;
    case 'document':
      return <>{e.change} the document {e.change === 'deleted' ? <span className="mono">{e.docKey}</span> : <a className="mono" href={href(`/issues/${issueRef}`, { doc: e.docKey })}>{e.docKey}</a>}{e.revisionNumber && e.change !== 'deleted' ? ` (revision ${e.revisionNumber})` : ''}</>;
    case 'checkout':
      return e.change === 'checked_out' ? 'checked it out' : e.change === 'released' ? 'released the checkout' : 'took over the checkout of a stopped run';
  }
}

/** A one-line change: who did what, when. */
export function ChangeEntry({ entry, names, issueRef }: { entry: Change; names: Names; issueRef: string }) {
  return (
    <div className="timeline-line">
      <strong>{names.actor(entry.actor)}</strong>
      <span>{sentence(entry, names, issueRef)}</span>
      <RelativeTime iso={entry.at} />
    </div>
  );
}
