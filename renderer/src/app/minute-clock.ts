import { useSyncExternalStore } from 'react';

/**
 * One shared clock for every relative time on screen: a single interval, started with the first
 * subscriber and stopped with the last, so a page of a thousand timestamps re-renders once a minute.
 */
const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | null = null;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (timer === null) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, 60_000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** The current time in ms, updated every minute while anything shows it. */
export function useMinuteClock(): number {
  return useSyncExternalStore(subscribe, () => now);
}
