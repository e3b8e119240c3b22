import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Rect } from './electron-like.js';

/** Window bounds and maximized flag, kept in `<home>/window-state.json` between launches. */
export interface WindowState {
  bounds: Rect;
  maximized: boolean;
}

export const WINDOW_STATE_FILE = 'window-state.json';
export const DEFAULT_SIZE = { width: 1280, height: 820 };
export const MIN_SIZE = { width: 900, height: 600 };
/** How much of the title bar must be on a display for saved bounds to be trusted. */
const VISIBLE_MIN = { width: 120, height: 40 };

const isRect = (v: unknown): v is Rect =>
  typeof v === 'object' && v !== null && ['x', 'y', 'width', 'height'].every((k) => Number.isFinite((v as Record<string, unknown>)[k]));

/** The saved state, or null when missing or unreadable (a broken file never stops the app). */
export function loadWindowState(home: string): WindowState | null {
  try {
    const raw: unknown = JSON.parse(readFileSync(path.join(home, WINDOW_STATE_FILE), 'utf8'));
    if (typeof raw !== 'object' || raw === null) return null;
    const { bounds, maximized } = raw as Record<string, unknown>;
    return isRect(bounds) ? { bounds, maximized: maximized === true } : null;
  } catch {
    return null;
  }
}

export function saveWindowState(home: string, state: WindowState): void {
  const file = path.join(home, WINDOW_STATE_FILE);
  writeFileSync(`${file}.tmp`, JSON.stringify(state) + '\n', { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  return {
    width: Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x),
    height: Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y),
  };
}

/**
 * Where the window opens. Saved bounds are used only when their title bar strip is visible on one
 * of today's displays (a monitor unplugged since would otherwise strand the window off screen);
 * else the saved size, clamped to the primary display, centred by the OS.
 */
export function restoreBounds(
  saved: WindowState | null,
  displays: readonly Rect[],
  primary: Rect,
): { bounds: Partial<Pick<Rect, 'x' | 'y'>> & Pick<Rect, 'width' | 'height'>; maximized: boolean } {
  const clamp = (size: { width: number; height: number }, area: Rect) => ({
    width: Math.max(MIN_SIZE.width, Math.min(Math.round(size.width), area.width)),
    height: Math.max(MIN_SIZE.height, Math.min(Math.round(size.height), area.height)),
  });
  if (!saved) return { bounds: clamp(DEFAULT_SIZE, primary), maximized: false };
  const titleBar: Rect = { ...saved.bounds, height: Math.min(saved.bounds.height, 48) };
  const home = displays.find((d) => {
    const o = overlap(titleBar, d);
    return o.width >= VISIBLE_MIN.width && o.height >= Math.min(VISIBLE_MIN.height, titleBar.height);
  });
  if (!home) return { bounds: clamp(saved.bounds, primary), maximized: saved.maximized };
  return { bounds: { x: Math.round(saved.bounds.x), y: Math.round(saved.bounds.y), ...clamp(saved.bounds, home) }, maximized: saved.maximized };
}
