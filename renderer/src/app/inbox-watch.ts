import { useEffect, useRef } from 'react';
import type { InboxItem } from '../api/types.js';
import { newItems } from '../pages/inbox/actions.js';
import { navigate } from './router.js';

/**
 * The inbox count in the window title, and in the headless board one OS notification per new item
 * once the founder allowed them (the browser's Notification API). The desktop shell notifies
 * natively and shows the count in its tray (main/electron).
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
    // The desktop shell (window.headcount) raises its own native notifications from the core's events.
    if ('headcount' in window || typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
    for (const item of fresh) {
      const n = new Notification(item.title, { body: item.summary, tag: item.id });
      n.onclick = () => {
        window.focus();
        navigate('/inbox');
      };
    }
  }, [companyId, items]);
}
