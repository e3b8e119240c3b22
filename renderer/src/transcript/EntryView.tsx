import { memo } from 'react';
import type { TranscriptEntry } from '../../../adapters/utils/src/transcript.js';

const inputPreview = (input: unknown): string => {
  if (input && typeof input === 'object') {
    const o = input as Record<string, unknown>;
    const first = o.command ?? o.file_path ?? o.path ?? o.pattern ?? o.url ?? o.query ?? o.description;
    if (typeof first === 'string') return first.length > 120 ? `${first.slice(0, 120)}…` : first;
  }
  return '';
};

const pretty = (v: unknown) => {
  try {
    return typeof v === 'string' ? v : JSON.stringify(v, null, 2);
  } catch {
    return String(v);
  }
};

/** One entry of the parsed view. Text is rendered as text (React escapes it): parser output is untrusted. */
export const EntryView = memo(function EntryView({ entry, expanded, onToggle }: { entry: TranscriptEntry; expanded: boolean; onToggle: () => void }) {
  switch (entry.kind) {
    case 'init':
      return (
        <div className="tx-entry tx-init">
          <span className="tx-tag">session</span> {entry.model ?? 'model unknown'}
          {entry.sessionId ? <span className="faint"> · {entry.sessionId}</span> : null}
        </div>
      );
    case 'assistant':
      return <div className="tx-entry tx-assistant">{entry.text}</div>;
    case 'thinking':
      return (
        <div className="tx-entry tx-thinking">
          <span className="tx-tag">thinking</span> {entry.text}
        </div>
      );
    case 'user':
      return (
        <div className="tx-entry tx-user">
          <span className="tx-tag">user</span> {entry.text}
        </div>
      );
    case 'tool_call':
      return (
        <div className="tx-entry tx-tool">
          <button type="button" className="tx-toggle" aria-expanded={expanded} onClick={onToggle}>
            <span aria-hidden="true">{expanded ? '▾' : '▸'}</span> <span className="tx-tool-name">{entry.name}</span>{' '}
            <span className="muted">{inputPreview(entry.input)}</span>
          </button>
          {expanded ? <pre className="tx-pre">{pretty(entry.input)}</pre> : null}
        </div>
      );
    case 'tool_result': {
      const long = entry.content.length > 400 || entry.content.split('\n').length > 6;
      return (
        <div className={`tx-entry tx-result-tool${entry.isError ? ' tx-error' : ''}`}>
          {long ? (
            <>
              <button type="button" className="tx-toggle" aria-expanded={expanded} onClick={onToggle}>
                <span aria-hidden="true">{expanded ? '▾' : '▸'}</span> {entry.isError ? 'tool error' : 'tool result'}{' '}
                <span className="muted">{entry.content.split('\n').length} lines</span>
              </button>
              <pre className="tx-pre">{expanded ? entry.content : `${entry.content.slice(0, 400).split('\n').slice(0, 6).join('\n')}…`}</pre>
            </>
          ) : (
            <pre className="tx-pre">{entry.content || <span className="faint">(empty result)</span>}</pre>
          )}
        </div>
      );
    }
    case 'result':
      return (
        <div className={`tx-entry tx-summary${entry.isError ? ' tx-error' : ''}`} role="group" aria-label="Run result">
          <div className="row">
            <strong>{entry.isError ? 'Finished with an error' : 'Finished'}</strong>
            {entry.subtype ? <span className="muted">{entry.subtype}</span> : null}
          </div>
          {entry.text ? <div className="tx-summary-text">{entry.text}</div> : null}
          <div className="tx-usage muted">
            {entry.inputTokens.toLocaleString()} in · {entry.outputTokens.toLocaleString()} out
            {entry.cachedTokens ? ` · ${entry.cachedTokens.toLocaleString()} cached` : ''}
            {' · '}
            {entry.costUsd === null ? 'cost not reported' : `$${entry.costUsd.toFixed(4)}`}
          </div>
          {entry.errors.length ? <ul className="tx-errors">{entry.errors.map((e, i) => <li key={i}>{e}</li>)}</ul> : null}
        </div>
      );
    case 'system':
      return <div className="tx-entry tx-system faint">{entry.text}</div>;
    case 'stderr':
      return <div className="tx-entry tx-raw tx-stderr">{entry.text}</div>;
    case 'stdout':
      return <div className="tx-entry tx-raw">{entry.text}</div>;
  }
});
