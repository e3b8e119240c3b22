import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { trayLabel } from '../../../main/electron/tray-label.js';
import { trayIconPng } from '../../../main/electron/tray-icon.js';

describe('tray label', () => {
  it('counts running agents', () => {
    expect(trayLabel(0)).toEqual({ tooltip: 'Headcount: no agent running', title: '', menuLabel: 'No agent running', inboxLabel: null });
    expect(trayLabel(1)).toEqual({ tooltip: 'Headcount: 1 agent running', title: '1', menuLabel: '1 agent running', inboxLabel: null });
    expect(trayLabel(4)).toEqual({ tooltip: 'Headcount: 4 agents running', title: '4', menuLabel: '4 agents running', inboxLabel: null });
  });
  it('adds the inbox count to the tooltip and the menu', () => {
    expect(trayLabel(0, 1)).toEqual({ tooltip: 'Headcount: no agent running, 1 item in your inbox', title: '', menuLabel: 'No agent running', inboxLabel: '1 item in your inbox' });
    expect(trayLabel(2, 3).tooltip).toBe('Headcount: 2 agents running, 3 items in your inbox');
    expect(trayLabel(2, -1).inboxLabel).toBeNull();
  });
  it('treats nonsense as zero', () => {
    expect(trayLabel(-2).title).toBe('');
    expect(trayLabel(Number.NaN).menuLabel).toBe('No agent running');
  });
});

describe('tray icon', () => {
  it('is a valid RGBA PNG of the asked size with opaque and transparent pixels', () => {
    const png = trayIconPng(32);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.toString('ascii', 12, 16)).toBe('IHDR');
    expect(png.readUInt32BE(16)).toBe(32);
    expect(png.readUInt32BE(20)).toBe(32);
    const idatLength = png.readUInt32BE(33);
    expect(png.toString('ascii', 37, 41)).toBe('IDAT');
    const rows = inflateSync(png.subarray(41, 41 + idatLength));
    expect(rows.length).toBe(32 * (32 * 4 + 1));
    const alpha = (x: number, y: number) => rows[y * (32 * 4 + 1) + 1 + x * 4 + 3];
    expect(alpha(0, 0)).toBe(0); // rounded corner
    expect(alpha(16, 16)).toBe(255);
  });
});
