import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../app/api-context.js';
import { runLogBus } from '../api/run-log-bus.js';
import type { RunLogPage } from '../api/types.js';
import type { UiParserResponse } from '../../../main/core/plugins/contract.js';
import { ErrorBox } from '../components/Page.js';
import { Button } from '../components/Button.js';
import { TranscriptWindow } from './window.js';
import { ParserHost, parserProblem } from './parser-host.js';
import { ParsedView } from './ParsedView.js';
import { TerminalView } from './TerminalView.js';
import { useShortcut } from '../shortcuts/registry.js';
import './transcript.css';

const mb = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} B`);

/** The adapter's UI parser; null when the route cannot be read (the shell parser is used then). */
function useUiParser(adapterType: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['adapters', adapterType, 'ui-parser'],
    queryFn: () => api.get<UiParserResponse>(`/api/adapters/${adapterType}/ui-parser`).catch(() => null),
    staleTime: Infinity,
  });
}

/**
 * A run's transcript: replayed from the log route, then followed live from the event stream, in
 * the adapter's parsed view or a terminal. Follow mode sticks to the end until the reader scrolls
 * up; "Jump to live" brings them back.
 */
export function TranscriptPanel({ runId, adapterType, active, purged }: { runId: string; adapterType: string; active: boolean; purged: boolean }) {
  const parser = useUiParser(adapterType);
  if (purged) return <div className="empty" role="status"><div className="empty-title">Transcript deleted</div><div className="empty-body">Transcript retention removed this run's log. Its size is still counted on the run.</div></div>;
  if (parser.isPending) return <div className="tx-panel tx-placeholder faint">Loading the parser…</div>;
  return <Transcript key={runId} runId={runId} parserResponse={parser.data ?? null} active={active} />;
}

function Transcript({ runId, parserResponse, active }: { runId: string; parserResponse: UiParserResponse | null; active: boolean }) {
  const api = useApi();
  const [view, setView] = useState<'parsed' | 'terminal'>('parsed');
  const [following, setFollowingState] = useState(true);
  const [fallback, setFallback] = useState<string | null>(null);
  // Render only builds the (inert) window; the parser's Worker and the run-log subscription are made
  // and ended by the effect, so StrictMode's mount → unmount → mount leaves exactly one of each and
  // the window is reopened, not left disposed.
  const [win] = useState(
    () =>
      new TranscriptWindow({
        fetchPage: (offset) => api.get<RunLogPage>(`/api/heartbeat-runs/${runId}/log`, { offset }),
      }),
  );
  const snap = useSyncExternalStore(win.subscribe, win.getSnapshot);

  useEffect(() => {
    const host = new ParserHost({ response: parserResponse, onFallback: (reason) => setFallback(reason) });
    win.setParser(host.parse);
    // Subscribe before replaying: what is published meanwhile waits in the window, placed by offset.
    const unsubscribe = runLogBus.subscribe(runId, (chunk) => win.push(chunk));
    void win.open();
    return () => {
      unsubscribe();
      win.dispose();
      host.dispose();
    };
  }, [runId, win, parserResponse]);

  // The run ended: read to the end once more (covers a stream that dropped near the end).
  useEffect(() => {
    if (!active) void win.catchUp();
  }, [active, win]);

  const setFollowing = useCallback(
    (f: boolean) => {
      setFollowingState(f);
      win.setFollowing(f);
    },
    [win],
  );
  const jumpToLive = useCallback(() => {
    setFollowing(true);
    if (!snap.atLiveEnd) void win.jumpToLive();
  }, [setFollowing, snap.atLiveEnd, win]);

  useShortcut('f', 'Follow the transcript (jump to live)', jumpToLive, { group: 'Run' });
  useShortcut('t', 'Switch parsed / terminal view', () => setView((v) => (v === 'parsed' ? 'terminal' : 'parsed')), { group: 'Run' });

  const behind = !following || !snap.atLiveEnd;
  // Why the raw output is shown: the parser cannot be used at all, or it failed while running.
  const rawReason = fallback ?? parserProblem(parserResponse);
  return (
    <div className="tx-panel">
      <div className="tx-toolbar">
        <div className="tabs tx-tabs" role="tablist" aria-label="Transcript view">
          <button type="button" role="tab" aria-selected={view === 'parsed'} onClick={() => setView('parsed')}>Parsed</button>
          <button type="button" role="tab" aria-selected={view === 'terminal'} onClick={() => setView('terminal')}>Terminal</button>
        </div>
        <span className="tx-position muted" aria-label="Transcript position">
          {snap.size > 0 ? `${mb(snap.start)}–${mb(snap.end)} of ${mb(snap.size)}` : ''}
        </span>
        <span className="spacer" />
        {rawReason ? <span className="faint" title={rawReason}>raw output ({rawReason})</span> : null}
        <label className="tx-follow">
          <input type="checkbox" checked={following} onChange={(e) => (e.target.checked ? jumpToLive() : setFollowing(false))} /> Follow
        </label>
        {behind && (active || !snap.atLiveEnd) ? (
          <Button size="sm" variant="primary" onClick={jumpToLive}>
            Jump to live
          </Button>
        ) : null}
      </div>
      {snap.error ? <ErrorBox error={snap.error} retry={() => void (snap.pages.length ? win.loadAfter() : win.open())} /> : null}
      {view === 'parsed' ? (
        <ParsedView win={win} snap={snap} following={following} setFollowing={setFollowing} active={active} />
      ) : (
        <TerminalView win={win} snap={snap} following={following} setFollowing={setFollowing} />
      )}
    </div>
  );
}
