import { useEffect, useRef, useState } from 'react';
import { Terminal } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import '@xterm/xterm/css/xterm.css';
import type { TranscriptWindow, WindowSnapshot } from './window.js';
import type { FollowProps } from './ParsedView.js';

const THEMES = {
  light: { background: '#fbfbfc', foreground: '#1d1d22', cursor: '#fbfbfc', selectionBackground: '#cfdcff' },
  dark: { background: '#121215', foreground: '#e6e6ea', cursor: '#121215', selectionBackground: '#34406a' },
};

/** Text written when the terminal (re)starts: about what its scrollback holds, so the write stays short. */
const TERMINAL_CHARS = 400_000;

/** Where the terminal has written up to: a line of a page (lines are written once they are complete). */
interface Cursor {
  pageId: number;
  line: number;
  start: number;
}

/** A cursor about `chars` characters of complete lines before the end of the window. */
function tailCursor(snap: WindowSnapshot, chars: number): Cursor {
  let left = chars;
  for (let i = snap.pages.length - 1; i >= 0; i--) {
    const page = snap.pages[i]!;
    const lines = page.builder.lines;
    for (let line = lines.length - 1; line >= 0; line--) {
      left -= lines[line]!.text.length + 1;
      if (left < 0) return { pageId: page.id, line: line + 1, start: snap.start };
    }
  }
  return { pageId: snap.pages[0]!.id, line: 0, start: snap.start };
}

/**
 * The terminal view: the raw output in xterm.js (colours and cursor moves as the CLI printed them).
 * It writes the window's complete lines once each; a window that gained pages at the top or jumped
 * is written again (its last TERMINAL_CHARS characters). xterm keeps its own bounded scrollback.
 */
export function TerminalView({ win, snap, following, setFollowing }: { win: TranscriptWindow; snap: WindowSnapshot } & FollowProps) {
  const host = useRef<HTMLDivElement>(null);
  const term = useRef<Terminal | null>(null);
  const cursor = useRef<Cursor | null>(null);
  const [showAll, setShowAll] = useState(false);
  const [truncated, setTruncated] = useState(false);
  const lastUserInput = useRef(0);
  const followRef = useRef(following);
  followRef.current = following;

  useEffect(() => {
    const dark = document.documentElement.dataset.theme === 'dark' || (document.documentElement.dataset.theme !== 'light' && window.matchMedia?.('(prefers-color-scheme: dark)').matches);
    const t = new Terminal({
      convertEol: true,
      disableStdin: true,
      scrollback: 20_000,
      fontSize: 12,
      fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
      theme: dark ? THEMES.dark : THEMES.light,
      cursorInactiveStyle: 'none',
    });
    const fit = new FitAddon();
    t.loadAddon(fit);
    t.open(host.current!);
    t.textarea?.setAttribute('aria-label', 'Terminal output');
    const refit = () => {
      try {
        fit.fit();
      } catch {
        // hidden (zero size): nothing to fit
      }
    };
    refit();
    const observer = new ResizeObserver(refit);
    observer.observe(host.current!);
    // Output moves the viewport too: only a scroll the reader made changes follow mode.
    const scrollSub = t.onScroll(() => {
      if (Date.now() - lastUserInput.current > 900) return;
      const b = t.buffer.active;
      const atBottom = b.viewportY >= b.baseY;
      if (atBottom !== followRef.current) setFollowing(atBottom);
    });
    term.current = t;
    cursor.current = null;
    return () => {
      scrollSub.dispose();
      observer.disconnect();
      t.dispose();
      term.current = null;
    };
  }, [setFollowing]);

  useEffect(() => {
    const t = term.current;
    if (!t || snap.pages.length === 0) return;
    let c = cursor.current;
    const pageIndex = c ? snap.pages.findIndex((p) => p.id === c!.pageId) : -1;
    if (!c || pageIndex < 0 || snap.start < c.start || (showAll && truncated)) {
      t.reset();
      c = showAll ? { pageId: snap.pages[0]!.id, line: 0, start: snap.start } : tailCursor(snap, TERMINAL_CHARS);
      setTruncated(c.pageId !== snap.pages[0]!.id || c.line > 0);
    }
    let out = '';
    let i = Math.max(0, snap.pages.findIndex((p) => p.id === c!.pageId));
    for (; i < snap.pages.length; i++) {
      const page = snap.pages[i]!;
      const lines = page.builder.lines;
      let line: number = page.id === c.pageId ? c.line : 0;
      for (; line < lines.length; line++) {
        const l = lines[line]!;
        if (l.open) break;
        out += l.stream === 'stderr' ? `\x1b[31m${l.text}\x1b[0m\n` : `${l.text}\n`;
      }
      c = { pageId: page.id, line, start: Math.min(c.start, snap.start) };
      if (line < lines.length) break;
    }
    cursor.current = { ...c, start: snap.start };
    if (!out) return;
    if (followRef.current) t.scrollToBottom();
    t.write(out, () => followRef.current && t.scrollToBottom());
  }, [snap, showAll, truncated]);

  useEffect(() => {
    if (following) term.current?.scrollToBottom();
  }, [following]);

  return (
    <div className="tx-terminal-wrap">
      {snap.start > 0 || truncated ? (
        <button type="button" className="btn btn-ghost btn-sm tx-earlier" disabled={snap.loading !== null} onClick={() => (truncated ? setShowAll(true) : void win.loadBefore())}>
          Show earlier output
        </button>
      ) : null}
      <div
        ref={host}
        className="tx-terminal"
        role="region"
        aria-label="Terminal view"
        onWheelCapture={() => (lastUserInput.current = Date.now())}
        onPointerDownCapture={() => (lastUserInput.current = Date.now())}
        onKeyDownCapture={() => (lastUserInput.current = Date.now())}
      />
    </div>
  );
}
