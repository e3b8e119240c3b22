import { useEffect, useRef } from 'react';
import type { InboxItem } from '../api/types.js';
import { newItems } from '../pages/inbox/actions.js';
import { navigate } from './router.js';

/**
 * The inbox count in the window title (the desktop shell shows it in the taskbar and tray tooltip
 * too), and one OS notification per new item once the founder allowed them (Notification API:
 * the browser's in the headless board, Electron's in the desktop window).
 */
export function useInboxWatch(companyId: string, items: readonly InboxItem[] | undefined): void {
  const known = useRef<{ companyId: string; ids: Set<string> } | null>(null);
  const count = items?.length ?? 0;
  useEffect(() => {
    document.title = count > 0 ? `(${count}) Headcount` : 'Headcount';
  }, [count]);
  useEffect(() => {
    if (!items) return;
    const prev = known.current?.companyId === companyId ? known.current.ids : null;
    const fresh = newItems(prev, items);
    known.current = { companyId, ids: new Set([...(prev ?? []), ...items.map((i) => i.id)]) };
    if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
    for (const item of fresh) {
      const n = new Notification(item.title, { body: item.summary, tag: item.id });
      n.onclick = () => {
        window.focus();
        navigate('/inbox');
      };
    }
  }, [companyId, items]);
}
