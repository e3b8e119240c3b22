import { useEffect, useSyncExternalStore } from 'react';
import { effectiveTheme, useUi } from '../stores/ui.js';

const query = () => window.matchMedia?.('(prefers-color-scheme: dark)');

function subscribe(cb: () => void) {
  const mq = query();
  mq?.addEventListener('change', cb);
  return () => mq?.removeEventListener('change', cb);
}

export function usePrefersDark(): boolean {
  return useSyncExternalStore(subscribe, () => query()?.matches ?? false);
}

/** Puts the effective theme on <html data-theme>, following the OS under "system". */
export function useApplyTheme(): 'light' | 'dark' {
  const choice = useUi((s) => s.theme);
  const prefersDark = usePrefersDark();
  const theme = effectiveTheme(choice, prefersDark);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  return theme;
}
