import { useEffect, useMemo, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { Dialog } from '../components/Dialog.js';
import { useShortcutList, type Shortcut } from './registry.js';
import './shortcuts.css';

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** How a key reads on this machine: `mod+k` is Ctrl+K, or ⌘K on a Mac (the registry takes either). */
export const keyLabel = (k: string): string => {
  if (k === ' ') return 'Space';
  const chord = /^mod\+(.)$/.exec(k);
  return chord ? `${isMac ? '⌘' : 'Ctrl+'}${chord[1]!.toUpperCase()}` : k;
};

/** `g d` → <kbd>g</kbd> then <kbd>d</kbd>. */
export function Keys({ keys }: { keys: string }) {
  const parts = keys.split(' ');
  return (
    <span className="kbd-keys">
      {parts.map((k, i) => (
        <span key={i}>
          {i > 0 ? <span className="faint"> then </span> : null}
          <kbd className="kbd">{keyLabel(k)}</kbd>
        </span>
      ))}
    </span>
  );
}

/** The shortcuts in effect, by group (also shown on the settings page). */
export function ShortcutTable({ list }: { list: readonly Shortcut[] }) {
  const groups = useMemo(() => {
    const m = new Map<string, Shortcut[]>();
    for (const s of list) m.set(s.group, [...(m.get(s.group) ?? []), s]);
    return [...m.entries()];
  }, [list]);
  if (list.length === 0) return <p className="muted">No shortcuts are active.</p>;
  return (
    <div className="shortcut-groups">
      {groups.map(([group, items]) => (
        <section key={group} aria-label={`${group} shortcuts`}>
          <h3 className="shortcut-group">{group}</h3>
          <dl className="kv">
            {items.map((s) => (
              <div key={s.keys} style={{ display: 'contents' }}>
                <dt><Keys keys={s.keys} /></dt>
                <dd>{s.description}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </div>
  );
}

let open: (() => void) | null = null;
let root: Root | null = null;

function HelpDialog() {
  const [isOpen, setOpen] = useState(false);
  const list = useShortcutList();
  useEffect(() => {
    open = () => setOpen((v) => !v);
    return () => {
      open = null;
    };
  }, []);
  return (
    <Dialog open={isOpen} title="Keyboard shortcuts" onClose={() => setOpen(false)}>
      <ShortcutTable list={list} />
    </Dialog>
  );
}

/**
 * Opens (or closes) the help. It lives in its own small React root so no page or frame has to host
 * it; it reads only the registry.
 */
export function toggleShortcutHelp(): void {
  if (!root) {
    const el = document.createElement('div');
    el.id = 'shortcut-help';
    document.body.appendChild(el);
    root = createRoot(el);
    root.render(<HelpDialog />);
    // The dialog mounts on the next frame; open it then.
    requestAnimationFrame(() => open?.());
    return;
  }
  open?.();
}
