import { useCallback, useEffect, useEffectEvent, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { TranscriptWindow, WindowSnapshot } from './window.js';
import { windowRows } from './rows.js';
import { EntryView } from './EntryView.js';

export interface FollowProps {
  following: boolean;
  setFollowing: (f: boolean) => void;
}

/** Input that means the reader moved the view themselves (a scroll event alone may be ours). */
const USER_SCROLL_MS = 600;
const EDGE_PX = 240;

/**
 * The adapter's parsed view, virtualized: only the rows on screen are in the DOM, whatever the
 * window holds. Near the top it asks the window for the page before, near the bottom for the page
 * after; the row the reader is looking at stays put while pages come and go above it.
 */
export function ParsedView({ win, snap, following, setFollowing, active }: { win: TranscriptWindow; snap: WindowSnapshot; active: boolean } & FollowProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const rows = useMemo(() => windowRows(snap.pages), [snap]);
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set());
  const lastUserInput = useRef(0);
  const anchor = useRef<{ key: string; within: number } | null>(null);

  // TanStack Virtual hands back one mutable instance by design; the board does not run the React
  // Compiler, so nothing is lost by it skipping this component.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 22,
    overscan: 10,
    getItemKey: (i) => rows[i]?.key ?? i,
  });

  // Follow was switched on (jump to live): the scrolls that follow are ours, not the reader's.
  useEffect(() => {
    if (following) lastUserInput.current = 0;
  }, [following]);

  const toggle = useCallback((key: string) => {
    setExpanded((prev) => {
      const next = new Set(prev);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  }, []);

  // Keep the view where it was across window changes; or stick to the end while following.
  useLayoutEffect(() => {
    if (rows.length === 0) return;
    if (following) {
      virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
      return;
    }
    const a = anchor.current;
    if (!a) return;
    const index = rows.findIndex((r) => r.key === a.key);
    if (index < 0) return;
    const start = virtualizer.getOffsetForIndex(index, 'start')?.[0];
    const el = scroller.current;
    if (start !== undefined && el && Math.abs(el.scrollTop - (start + a.within)) > 1) el.scrollTop = start + a.within;
  }, [rows, following, virtualizer]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    const items = virtualizer.getVirtualItems();
    const first = items.find((v) => v.end > el.scrollTop);
    if (first) anchor.current = { key: String(first.key), within: el.scrollTop - first.start };
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 32;
    if (Date.now() - lastUserInput.current < USER_SCROLL_MS) {
      const follow = atBottom && snap.atLiveEnd;
      if (follow !== following) setFollowing(follow);
    }
    loadAtEdges();
  };

  // Reading on past either end of the window loads the next page there. Checked on every scroll,
  // and again whenever a load ends: a reader who reached the top while a follow load was in flight
  // gets no further scroll event (the view cannot scroll above 0), so the end of that load is the
  // only moment left to notice them.
  const loadAtEdges = () => {
    const el = scroller.current;
    if (!el || snap.loading) return;
    if (el.scrollTop < EDGE_PX && snap.start > 0) void win.loadBefore();
    else if (el.scrollHeight - el.scrollTop - el.clientHeight < EDGE_PX && !snap.atLiveEnd) void win.loadAfter();
  };
  // Runs when a load ends (not on every scroll or follow change), with this render's view of both.
  const onLoadEnded = useEffectEvent(() => {
    if (!following) loadAtEdges();
  });
  useEffect(() => {
    if (!snap.loading) onLoadEnded();
  }, [snap.loading]);

  const markUser = () => (lastUserInput.current = Date.now());
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
      onWheel={markUser}
      // A press on the scroller itself is its scrollbar; one on a row (opening a tool call) is not scrolling.
      onPointerDown={(e) => e.target === e.currentTarget && markUser()}
      onTouchMove={markUser}
      onKeyDown={(e) => {
        if (['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End', ' '].includes(e.key)) markUser();
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
