import { create } from 'zustand';
import type { StreamStatus } from '../api/event-stream.js';

export type ThemeChoice = 'system' | 'light' | 'dark';

export interface Toast {
  id: number;
  kind: 'error' | 'success' | 'info';
  message: string;
  /** Optional short title above the message, e.g. the action that failed. */
  title?: string;
}

export interface UiState {
  theme: ThemeChoice;
  companyId: string | null;
  toasts: Toast[];
  live: StreamStatus;
  setTheme(theme: ThemeChoice): void;
  setCompanyId(id: string | null): void;
  pushToast(toast: Omit<Toast, 'id'>): number;
  dismissToast(id: number): void;
  setLive(status: StreamStatus): void;
}

const THEME_KEY = 'headcount.theme';
const COMPANY_KEY = 'headcount.companyId';

function read(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}
function write(key: string, value: string | null): void {
  try {
    if (value === null) globalThis.localStorage?.removeItem(key);
    else globalThis.localStorage?.setItem(key, value);
  } catch {
    // storage may be unavailable (private mode); the choice then lasts for the session only
  }
}

const initialTheme = (): ThemeChoice => {
  const saved = read(THEME_KEY);
  return saved === 'light' || saved === 'dark' ? saved : 'system';
};

let nextToastId = 1;
/** Errors stay until dismissed or replaced; confirmations fade on their own. */
export const TOAST_TTL_MS = 5000;
export const MAX_TOASTS = 4;

export const useUi = create<UiState>()((set) => ({
  theme: initialTheme(),
  companyId: read(COMPANY_KEY),
  toasts: [],
  live: 'connecting',
  setTheme(theme) {
    write(THEME_KEY, theme === 'system' ? null : theme);
    set({ theme });
  },
  setCompanyId(companyId) {
    write(COMPANY_KEY, companyId);
    set({ companyId });
  },
  pushToast(toast) {
    const id = nextToastId++;
    set((s) => ({ toasts: [...s.toasts.filter((t) => t.message !== toast.message), { ...toast, id }].slice(-MAX_TOASTS) }));
    if (toast.kind !== 'error') setTimeout(() => useUi.getState().dismissToast(id), TOAST_TTL_MS);
    return id;
  },
  dismissToast(id) {
    set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
  },
  setLive(live) {
    set({ live });
  },
}));

/** The theme actually shown: a choice, or the OS preference under 'system'. */
export function effectiveTheme(choice: ThemeChoice, prefersDark: boolean): 'light' | 'dark' {
  return choice === 'system' ? (prefersDark ? 'dark' : 'light') : choice;
}

/** Toggle order of the theme button: system → light → dark → system. */
export function nextTheme(choice: ThemeChoice): ThemeChoice {
  return choice === 'system' ? 'light' : choice === 'light' ? 'dark' : 'system';
}

export const toastError = (err: unknown, title?: string) =>
  useUi.getState().pushToast({ kind: 'error', message: err instanceof Error ? err.message : String(err), ...(title ? { title } : {}) });
export const toastSuccess = (message: string) => useUi.getState().pushToast({ kind: 'success', message });
