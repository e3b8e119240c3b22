import { useCallback, useEffect, useEffectEvent, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { TranscriptWindow, WindowPage, WindowSnapshot } from './window.js';
import { windowRows } from './rows.js';
import { EntryView } from './EntryView.js';

export interface FollowProps {
  following: boolean;
  setFollowing: (f: boolean) => void;
}

/** Input that means the reader moved the view themselves (a scroll event alone may be ours). */
const USER_SCROLL_MS = 600;
const EDGE_PX = 240;
/** Every complete stdout line of the page has its parsed entries (a missing page counts as parsed). */
const isParsed = (page: WindowPage | undefined) => !page || page.parsedUntil >= page.builder.completeStdoutUntil;
const UP_KEYS = ['ArrowUp', 'PageUp', 'Home'];
const DOWN_KEYS = ['ArrowDown', 'PageDown', 'End', ' '];

/**
 * The adapter's parsed view, virtualized: only the rows on screen are in the DOM, whatever the
 * window holds. Near the top it asks the window for the page before, near the bottom for the page
 * after; the row the reader is looking at stays put while pages come and go above it.
 */
export function ParsedView({ win, snap, following, setFollowing, active }: { win: TranscriptWindow; snap: WindowSnapshot; active: boolean } & FollowProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const rows = useMemo(() => windowRows(snap.pages), [snap]);
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set());
  /** The reader's last gesture on the view: when, and which way (null: a scrollbar or touch drag). */
  const lastUserInput = useRef(0);
  const lastDirection = useRef<'up' | 'down' | null>(null);
  const lastTop = useRef(0);

  // TanStack Virtual hands back one mutable instance by design; the board does not run the React
  // Compiler, so nothing is lost by it skipping this component.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 22,
    overscan: 10,
    getItemKey: (i) => rows[i]?.key ?? i,
    // Pages read above the view keep the row the reader is looking at in place (matched by key),
    // and rows appended while the view is at its end keep it there: the virtualizer's own anchoring,
    // so that nothing else (a hand-made anchor, the browser's scroll anchoring) corrects it twice.
    anchorTo: 'end',
    followOnAppend: following,
  });

  // Follow was switched on (jump to live): the scrolls that follow are ours, not the reader's.
  // Switched off: a scroll to the end still settling in the virtualizer must not pull the reader back.
  useEffect(() => {
    if (following) lastUserInput.current = 0;
    else virtualizer.cancelScroll();
  }, [following, virtualizer]);

  const toggle = useCallback((key: string) => {
    setExpanded((prev) => {
      const next = new Set(prev);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  }, []);

  // While following, stick to the end (also when the reader was not at it: jump to live).
  useLayoutEffect(() => {
    if (rows.length > 0 && following) virtualizer.scrollToEnd();
  }, [rows, following, virtualizer]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    const movedDown = el.scrollTop > lastTop.current;
    lastTop.current = el.scrollTop;
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 32;
    if (Date.now() - lastUserInput.current < USER_SCROLL_MS) {
      // Only the reader's own way down to the live end turns following back on: content moving under
      // a reader who is scrolling up (pages arriving, rows measured) never does.
      if (following && !(atBottom && snap.atLiveEnd)) setFollowing(false);
      else if (!following && atBottom && snap.atLiveEnd && movedDown && lastDirection.current !== 'up') setFollowing(true);
    }
    loadAtEdges();
  };

  // Reading on past either end of the window loads the next page there. Checked on every scroll,
  // and again whenever a load ends: a reader who reached the top while a follow load was in flight
  // gets no further scroll event (the view cannot scroll above 0), so the end of that load is the
  // only moment left to notice them.
  //
  // A page shows its rows only once it is parsed, so the next page is read only after the edge page
  // is on screen: otherwise a reader at the top would see nothing arrive, the top would still be
  // near, and page after page would be read, each pushing one out at the far end, until the rows
  // the reader was looking at (and the view's anchor) were gone.
  const firstParsed = isParsed(snap.pages[0]);
  const lastParsed = isParsed(snap.pages.at(-1));
  const loadAtEdges = () => {
    const el = scroller.current;
    if (!el || snap.loading) return;
    if (el.scrollTop < EDGE_PX && snap.start > 0) {
      if (firstParsed) void win.loadBefore();
    } else if (el.scrollHeight - el.scrollTop - el.clientHeight < EDGE_PX && !snap.atLiveEnd) {
      if (lastParsed) void win.loadAfter();
    }
  };
  // Runs when a load ends or an edge page is parsed (not on every scroll or follow change), with
  // this render's view of both.
  const onEdgeSettled = useEffectEvent(() => {
    if (!following) loadAtEdges();
  });
  useEffect(() => {
    if (!snap.loading) onEdgeSettled();
  }, [snap.loading, firstParsed, lastParsed]);

  const markUser = (direction: 'up' | 'down' | null) => {
    lastUserInput.current = Date.now();
    lastDirection.current = direction;
    // Reading up means leaving the live end, whatever the view does before its scroll event.
    if (direction === 'up' && following && ((scroller.current?.scrollTop ?? 0) > 0 || snap.start > 0)) setFollowing(false);
  };
  const items = virtualizer.getVirtualItems();
  return (
    <div
      ref={scroller}
      className="tx-scroller"
      role="log"
      aria-label="Run transcript"
      aria-live={active && following ? 'polite' : 'off'}
      aria-busy={snap.loading !== null}
      tabIndex={0}
      onScroll={onScroll}
      onWheel={(e) => e.deltaY !== 0 && markUser(e.deltaY < 0 ? 'up' : 'down')}
      // A press on the scroller itself is its scrollbar; one on a row (opening a tool call) is not scrolling.
      onPointerDown={(e) => e.target === e.currentTarget && markUser(null)}
      onTouchMove={() => markUser(null)}
      onKeyDown={(e) => {
        if (UP_KEYS.includes(e.key)) markUser('up');
        else if (DOWN_KEYS.includes(e.key)) markUser('down');
      }}
    >
      {snap.start > 0 ? <div className="tx-edge faint">{snap.loading === 'before' ? 'Loading earlier output…' : 'Scroll up for earlier output'}</div> : null}
      {rows.length === 0 ? <div className="faint tx-empty">{snap.loading ? 'Loading the transcript…' : active ? 'Waiting for output…' : 'This run printed nothing.'}</div> : null}
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
        {items.map((v) => {
          const row = rows[v.index]!;
          return (
            <div key={v.key} data-index={v.index} ref={virtualizer.measureElement} className="tx-row" style={{ transform: `translateY(${v.start}px)` }}>
              <EntryView entry={row.entry} expanded={expanded.has(row.key)} onToggle={() => toggle(row.key)} />
            </div>
          );
        })}
      </div>
    </div>
  );
}
