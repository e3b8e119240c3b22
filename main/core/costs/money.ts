import { MICRO_CENTS_PER_CENT } from './schema.js';

/**
 * The largest cost one event may carry: one million dollars. It keeps every stored amount, and the
 * sum of a month of them, far inside the exact integer range of a JavaScript number.
 */
export const MAX_EVENT_CENTS = 100_000_000;

/** MICRO_CENTS_PER_CENT is 10^6: the decimal point moves six places. */
const MICRO_DIGITS = 6;

/**
 * Cents as the client wrote them, converted to integer millionths of a cent, rounding half up.
 *
 * The conversion works on the decimal text of the number, not on `cents * 1e6`: binary floating
 * point would turn 1.0000005 into 1000000.4999… and round the wrong way. `String(n)` is the
 * shortest decimal that reads back as `n`, which is exactly what the client sent in JSON for any
 * number with up to 15 significant digits.
 */
export function centsToMicro(cents: number): number {
  if (!Number.isFinite(cents) || cents < 0) throw new RangeError('cents must be a finite number >= 0');
  const text = String(cents);
  // Most amounts are written plainly with at most six decimals: their digits are the micro-cents,
  // exactly, and up to 15 of them parse exactly as a number. This path skips the splitting and the
  // BigInt below, which were 1.3% of a cost event's CPU (issue 17).
  const dot = text.indexOf('.');
  if (!text.includes('e') && (dot === -1 || text.length - dot - 1 <= MICRO_DIGITS)) {
    const digits = dot === -1 ? text + '000000' : text.slice(0, dot) + text.slice(dot + 1).padEnd(MICRO_DIGITS, '0');
    if (digits.length <= 15) return Number(digits);
  }
  const [mantissa = '0', exponent = '0'] = text.toLowerCase().split('e');
  const [intPart = '0', fracPart = ''] = mantissa.split('.');
  let digits = intPart + fracPart;
  // Where the decimal point falls in `digits` once the value is scaled to micro-cents.
  let point = intPart.length + Number(exponent) + MICRO_DIGITS;
  if (point < 1) {
    digits = '0'.repeat(1 - point) + digits;
    point = 1;
  }
  if (point > digits.length) digits += '0'.repeat(point - digits.length);
  const whole = BigInt(digits.slice(0, point));
  const roundsUp = (digits[point] ?? '0') >= '5';
  return Number(roundsUp ? whole + 1n : whole);
}

/** Micro-cents back to cents. Dividing by a power of ten gives the nearest double, so 16665000 reads 16.665. */
export const microToCents = (micro: number): number => micro / MICRO_CENTS_PER_CENT;

/**
 * Whether `spentMicro` has reached `percent`% of a budget in whole cents, compared exactly in
 * integers (a budget of 0 means no limit, so it is never reached).
 */
export function reachedPercent(spentMicro: number, budgetCents: number, percent: number): boolean {
  if (budgetCents <= 0) return false;
  return BigInt(spentMicro) * 100n >= BigInt(budgetCents) * BigInt(MICRO_CENTS_PER_CENT) * BigInt(percent);
}

/** Spend over budget as a ratio (1 = the whole budget); null when the budget is 0, i.e. no limit. */
export const utilization = (spentMicro: number, budgetCents: number): number | null =>
  budgetCents > 0 ? spentMicro / (budgetCents * MICRO_CENTS_PER_CENT) : null;

export const WARNING_PERCENT = 80;
export const STOP_PERCENT = 100;

/** `warning` from 80% of the budget, `exceeded` once the budget is reached (100% is the hard stop). */
export function budgetStatus(spentMicro: number, budgetCents: number): 'ok' | 'warning' | 'exceeded' {
  if (reachedPercent(spentMicro, budgetCents, STOP_PERCENT)) return 'exceeded';
  if (reachedPercent(spentMicro, budgetCents, WARNING_PERCENT)) return 'warning';
  return 'ok';
}
