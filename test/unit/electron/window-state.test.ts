import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SIZE, loadWindowState, restoreBounds, saveWindowState, WINDOW_STATE_FILE } from '../../../main/electron/window-state.js';

const home = () => mkdtempSync(path.join(os.tmpdir(), 'hc-window-'));
const laptop = { x: 0, y: 0, width: 1440, height: 900 };
const rightMonitor = { x: 1440, y: 0, width: 2560, height: 1440 };

describe('window state file', () => {
  it('round-trips bounds and maximized in the data home', () => {
    const h = home();
    saveWindowState(h, { bounds: { x: 10, y: 20, width: 1000, height: 700 }, maximized: true });
    expect(loadWindowState(h)).toEqual({ bounds: { x: 10, y: 20, width: 1000, height: 700 }, maximized: true });
    expect(JSON.parse(readFileSync(path.join(h, WINDOW_STATE_FILE), 'utf8')).maximized).toBe(true);
  });
  it('ignores a missing or broken file', () => {
    const h = home();
    expect(loadWindowState(h)).toBeNull();
    writeFileSync(path.join(h, WINDOW_STATE_FILE), '{not json');
    expect(loadWindowState(h)).toBeNull();
    writeFileSync(path.join(h, WINDOW_STATE_FILE), JSON.stringify({ bounds: { x: 'a', y: 0, width: 1, height: 1 } }));
    expect(loadWindowState(h)).toBeNull();
  });
});

describe('restoring onto a visible display', () => {
  it('uses the saved bounds when the title bar is on a display', () => {
    const saved = { bounds: { x: 1600, y: 100, width: 1200, height: 800 }, maximized: false };
    expect(restoreBounds(saved, [laptop, rightMonitor], laptop)).toEqual({ bounds: { x: 1600, y: 100, width: 1200, height: 800 }, maximized: false });
  });
  it('discards the position when that display is gone, keeping the size within the primary display', () => {
    const saved = { bounds: { x: 1600, y: 100, width: 2000, height: 1200 }, maximized: true };
    expect(restoreBounds(saved, [laptop], laptop)).toEqual({ bounds: { width: 1440, height: 900 }, maximized: true });
  });
  it('discards bounds that only graze a display', () => {
    const saved = { bounds: { x: 1400, y: 100, width: 1000, height: 700 }, maximized: false };
    expect(restoreBounds(saved, [laptop], laptop).bounds).toEqual({ width: 1000, height: 700 });
    const aboveTop = { bounds: { x: 100, y: -700, width: 1000, height: 700 }, maximized: false };
    expect(restoreBounds(aboveTop, [laptop], laptop).bounds.x).toBeUndefined();
  });
  it('opens at the default size the first time', () => {
    expect(restoreBounds(null, [laptop], laptop)).toEqual({ bounds: DEFAULT_SIZE, maximized: false });
    expect(restoreBounds(null, [{ x: 0, y: 0, width: 1024, height: 700 }], { x: 0, y: 0, width: 1024, height: 700 }).bounds).toEqual({ width: 1024, height: 700 });
  });
});
