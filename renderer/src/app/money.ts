/** "12.50" → 1250 cents; empty → 0 (no limit); anything else → null. */
export function dollarsToCents(text: string): number | null {
  const t = text.trim().replace(/^\$/, '').replace(/,/g, '');
  if (t === '') return 0;
  if (!/^\d+(\.\d{1,2})?$/.test(t)) return null;
  return Math.round(Number(t) * 100);
}

export const centsToDollars = (cents: number): string => (cents === 0 ? '' : (cents / 100).toFixed(2).replace(/\.00$/, ''));
