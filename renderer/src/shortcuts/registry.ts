import { useEffect, useEffectEvent, useSyncExternalStore } from 'react';

/**
 * Keyboard shortcuts of the whole board in one registry: pages register what they offer while they
 * are mounted, one window listener dispatches, and the help (`?`) lists what is active now. Keys are
 * a single key (`c`, `/`, `?`), a two-key sequence (`g d`) or a chord with Ctrl/Cmd (`mod+k`). A later registration of the same keys
 * wins while it lives (a page can take over `c` from the shell), and the earlier one comes back after.
 */
export interface Shortcut {
  keys: string;
  description: string;
  group: string;
  run: () => void;
}

interface Entry extends Shortcut {
  id: number;
}

export interface KeyLike {
  key: string;
  metaKey?: boolean;
  ctrlKey?: boolean;
  altKey?: boolean;
  target?: EventTarget | null;
  preventDefault?: () => void;
}

/** True when a key press belongs to a text field and must not trigger shortcuts. */
export function isTyping(target: EventTarget | null | undefined): boolean {
  if (!target || typeof (target as HTMLElement).tagName !== 'string') return false;
  const el = target as HTMLElement;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName);
}

export class ShortcutRegistry {
  private entries: Entry[] = [];
  private nextId = 1;
  private prefix: string | null = null;
  private prefixAt = 0;
  private snapshot: readonly Shortcut[] = [];
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly sequenceMs = 1200,
    private readonly now: () => number = () => Date.now(),
  ) {}

  register(shortcut: Shortcut): () => void {
    const entry = { ...shortcut, keys: normalize(shortcut.keys), id: this.nextId++ };
    this.entries.push(entry);
    this.changed();
    return () => {
      this.entries = this.entries.filter((e) => e !== entry);
      this.changed();
    };
  }

  /** The shortcuts in effect (the latest per keys), for the help. */
  list = (): readonly Shortcut[] => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Handles one key press; true when a shortcut ran or a sequence started. */
  handle(e: KeyLike): boolean {
    // `mod+<key>` (Ctrl, or Cmd on macOS) works even in a text field: it is what such chords are for.
    if ((e.metaKey || e.ctrlKey) && !e.altKey && e.key.length === 1) {
      const chord = this.find(`mod+${e.key.toLowerCase()}`);
      if (!chord) return false;
      e.preventDefault?.();
      chord.run();
      return true;
    }
    if (e.metaKey || e.ctrlKey || e.altKey || isTyping(e.target)) return false;
    const key = e.key;
    if (key.length !== 1 && key !== 'Escape') return false;
    if (this.prefix && this.now() - this.prefixAt < this.sequenceMs) {
      const seq = `${this.prefix} ${key}`;
      this.prefix = null;
      const hit = this.find(seq);
      if (hit) {
        e.preventDefault?.();
        hit.run();
        return true;
      }
      // Not a sequence: the key is read on its own below.
    }
    this.prefix = null;
    const single = this.find(key);
    if (single) {
      e.preventDefault?.();
      single.run();
      return true;
    }
    if (this.entries.some((x) => x.keys.startsWith(`${key} `))) {
      this.prefix = key;
      this.prefixAt = this.now();
      return true;
    }
    return false;
  }

  /** Listens on a window (one listener for the whole board); returns the detach function. */
  attach(target: Pick<Window, 'addEventListener' | 'removeEventListener'>): () => void {
    const onKey = (e: KeyboardEvent) => void this.handle(e);
    target.addEventListener('keydown', onKey);
    return () => target.removeEventListener('keydown', onKey);
  }

  private find(keys: string): Entry | undefined {
    for (let i = this.entries.length - 1; i >= 0; i--) if (this.entries[i]!.keys === keys) return this.entries[i];
    return undefined;
  }

  private changed(): void {
    const seen = new Set<string>();
    const out: Shortcut[] = [];
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i]!;
      if (seen.has(e.keys)) continue;
      seen.add(e.keys);
      out.unshift({ keys: e.keys, description: e.description, group: e.group, run: e.run });
    }
    this.snapshot = out;
    for (const l of this.listeners) l();
  }
}

const normalize = (keys: string) => keys.trim().split(/\s+/).join(' ');

/** The board's registry. */
export const shortcuts = new ShortcutRegistry();

/** Registers a shortcut while the component is mounted; `run` may change between renders. */
export function useShortcut(keys: string, description: string, run: () => void, options: { group?: string; enabled?: boolean } = {}): void {
  const onRun = useEffectEvent(run);
  const enabled = options.enabled ?? true;
  const group = options.group ?? 'Page';
  useEffect(() => {
    if (!enabled) return;
    return shortcuts.register({ keys, description, group, run: () => onRun() });
  }, [keys, description, group, enabled]);
}

export function useShortcutList(): readonly Shortcut[] {
  return useSyncExternalStore(shortcuts.subscribe, shortcuts.list);
}
