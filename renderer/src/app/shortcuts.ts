import { useEffect } from 'react';
import { navigate } from './router.js';
import { routes } from './routes.js';
import { isTyping as isTypingTarget, shortcuts } from '../shortcuts/registry.js';
import { toggleShortcutHelp } from '../shortcuts/ShortcutHelp.js';

/** True when a key press belongs to a text field and must not trigger shortcuts. */
export const isTyping = (target: EventTarget | null): boolean => isTypingTarget(target);

/** Focuses the page's search or first filter field (`/`). */
function focusSearch(): void {
  const el = document.querySelector<HTMLElement>('input[type="search"], [role="search"] input, [role="search"] select, main input:not([type="checkbox"]):not([type="hidden"])');
  el?.focus();
}

/**
 * Two-key "go to" shortcuts in the style of Linear (`g` then a letter; `map` is letter → action),
 * plus the board-wide ones (`?` help, `/` search, `c` create issue), registered in the shortcut
 * registry (renderer/src/shortcuts/registry.ts) that one window listener dispatches. Pages add their
 * own with `useShortcut`.
 */
export function useGoShortcuts(map: Record<string, () => void>): void {
  useEffect(() => {
    const detach = shortcuts.attach(window);
    const label = (letter: string) => routes.find((r) => r.nav?.shortcut === letter)?.nav?.label ?? letter;
    const offs = [
      ...Object.entries(map).map(([letter, run]) => shortcuts.register({ keys: `g ${letter}`, description: `Go to ${label(letter)}`, group: 'Navigation', run })),
      shortcuts.register({ keys: '?', description: 'Show keyboard shortcuts', group: 'General', run: toggleShortcutHelp }),
      shortcuts.register({ keys: '/', description: 'Search or filter this page', group: 'General', run: focusSearch }),
      shortcuts.register({ keys: 'c', description: 'Create an issue', group: 'General', run: () => navigate('/issues', { create: '1' }) }),
    ];
    return () => {
      for (const off of offs) off();
      detach();
    };
  }, [map]);
}
