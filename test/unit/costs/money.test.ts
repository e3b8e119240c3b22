import { describe, expect, it } from 'vitest';
import { budgetStatus, centsToMicro, microToCents, reachedPercent, utilization } from '../../../main/core/costs/money.js';
import { inWindow, monthWindow, MONTH_PATTERN, windowOfMonth } from '../../../main/core/costs/window.js';

describe('centsToMicro', () => {
  it('converts the decimal value exactly, rounding half up at the millionth of a cent', () => {
    const cases: [number, number][] = [
      [0, 0],
      [1, 1_000_000],
      [0.3333, 333_300],
      [0.1 + 0.2, 300_000], // 0.30000000000000004
      [1.0000005, 1_000_001], // binary: 1000000.4999…
      [2.0000004999, 2_000_000],
      [0.0000005, 1],
      [0.00000049, 0],
      [1e-7, 0],
      [5e-7, 1],
      [1.5e-6, 2],
      [123456.789012, 123_456_789_012],
      [100_000_000, 100_000_000_000_000],
      [9.9999995, 10_000_000],
    ];
    for (const [cents, micro] of cases) expect(centsToMicro(cents), String(cents)).toBe(micro);
  });

  it('reads any amount of at most six decimals as exactly its micro-cents, at every magnitude', () => {
    // m / 1e6 prints as the decimal m * 10^-6 (at most 15 significant digits round-trip), so the
    // plain-text path must give m back; 1e-6 and the largest event amount are the edges.
    let seed = 17;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const cases = [1, 999_999, 1_000_000, 100_000_000_000_000];
    for (let i = 0; i < 20_000; i++) cases.push(Math.floor(next() * 10 ** (1 + Math.floor(next() * 14))));
    for (const micro of cases) expect(centsToMicro(micro / 1e6), String(micro / 1e6)).toBe(micro);
  });

  it('refuses negative and non-finite amounts', () => {
    for (const bad of [-1, -0.0000001, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => centsToMicro(bad)).toThrow(RangeError);
  });

  it('reads back as the same short decimal', () => {
    expect(microToCents(16_665_000)).toBe(16.665);
    expect(microToCents(centsToMicro(0.3333) * 3)).toBe(0.9999);
  });
});

describe('budget thresholds', () => {
  it('compares exactly in integers; a budget of 0 is never reached', () => {
    expect(reachedPercent(79_999_999, 100, 80)).toBe(false);
    expect(reachedPercent(80_000_000, 100, 80)).toBe(true);
    expect(reachedPercent(99_999_999, 100, 100)).toBe(false);
    expect(reachedPercent(100_000_000, 100, 100)).toBe(true);
    expect(reachedPercent(Number.MAX_SAFE_INTEGER, 0, 100)).toBe(false);
    // A huge budget still compares exactly (beyond 2^53 micro-cents).
    expect(reachedPercent(9_007_199_254_740_991, 1_000_000_000_000, 100)).toBe(false);
  });

  it('reports status and utilization', () => {
    expect(budgetStatus(0, 0)).toBe('ok');
    expect(budgetStatus(5_000_000_000, 0)).toBe('ok');
    expect(budgetStatus(79_000_000, 100)).toBe('ok');
    expect(budgetStatus(80_000_000, 100)).toBe('warning');
    expect(budgetStatus(100_000_000, 100)).toBe('exceeded');
    expect(budgetStatus(150_000_000, 100)).toBe('exceeded');
    expect(utilization(50_000_000, 200)).toBe(0.25);
    expect(utilization(300_000_000, 100)).toBe(3);
    expect(utilization(1, 0)).toBeNull();
  });
});

describe('monthly windows', () => {
  it('are calendar months in UTC', () => {
    expect(monthWindow(new Date('2025-01-31T23:59:59.999Z'))).toEqual({ month: '2025-01', start: '2025-01-01T00:00:00.000Z', end: '2025-02-01T00:00:00.000Z' });
    expect(monthWindow(new Date('2025-02-01T00:00:00.000Z')).month).toBe('2025-02');
    // 00:30 on 1 February in UTC+1 is still January in UTC.
    expect(monthWindow(new Date('2025-02-01T00:30:00+01:00')).month).toBe('2025-01');
    expect(monthWindow(new Date('2024-12-31T23:59:59.999Z')).end).toBe('2025-01-01T00:00:00.000Z');
    expect(windowOfMonth('2024-02')).toEqual({ month: '2024-02', start: '2024-02-01T00:00:00.000Z', end: '2024-03-01T00:00:00.000Z' });
    const w = windowOfMonth('2025-01');
    expect(inWindow('2025-01-31T23:59:59.999Z', w)).toBe(true);
    expect(inWindow('2025-02-01T00:00:00.000Z', w)).toBe(false);
    expect(inWindow('2025-01-01T00:00:00.000Z', w)).toBe(true);
  });

  it('answer the month of each date when asked in any order, and cannot be changed by a caller', () => {
    // monthWindow keeps the last window it built: crossing a boundary either way must not reuse it.
    const dates = ['2025-01-31T23:59:59.999Z', '2025-02-01T00:00:00.000Z', '2025-01-31T23:59:59.999Z', '2025-01-01T00:00:00.000Z', '2024-12-31T23:59:59.999Z', '2025-02-28T23:59:59.999Z', '2025-03-01T00:00:00.000Z'];
    for (const iso of dates) {
      const w = monthWindow(new Date(iso));
      expect(w.month, iso).toBe(iso.slice(0, 7));
      expect(inWindow(iso, w), iso).toBe(true);
      expect(Object.isFrozen(w)).toBe(true);
    }
    expect(monthWindow(new Date('2025-03-15T12:00:00Z'))).toBe(monthWindow(new Date('2025-03-31T00:00:00Z')));
    expect(() => monthWindow(new Date('not a date'))).toThrow(RangeError);
  });

  it('accept YYYY-MM months only', () => {
    for (const ok of ['1970-01', '2025-12', '9999-06']) expect(MONTH_PATTERN.test(ok), ok).toBe(true);
    for (const bad of ['2025-00', '2025-13', '2025-1', '25-01', '1969-12', '2025-01-01', ' 2025-01']) expect(MONTH_PATTERN.test(bad), bad).toBe(false);
  });
});
