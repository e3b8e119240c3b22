import { eq } from 'drizzle-orm';
import { companies } from './schema.js';
import type { Queryable } from '../context.js';

/**
 * The base of a company's issue prefix: initials of a multi-word name ("Acme Robotics" -> "AR"),
 * else the first four letters ("Acme" -> "ACME"); "CO" when the name has no usable letters.
 */
export function basePrefix(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter((w) => /^[A-Z]/.test(w));
  if (words.length === 0) return 'CO';
  const initials = words.map((w) => w[0]).join('').slice(0, 4);
  if (words.length > 1 && initials.length >= 2) return initials;
  return words[0]!.replace(/[^A-Z]/g, '').slice(0, 4) || 'CO';
}

/** A prefix no other company uses: the base, then base2, base3, ... */
export function uniqueIssuePrefix(db: Queryable, name: string): string {
  const base = basePrefix(name);
  for (let i = 1; ; i++) {
    const candidate = i === 1 ? base : `${base}${i}`;
    if (!db.select({ id: companies.id }).from(companies).where(eq(companies.issuePrefix, candidate)).get()) return candidate;
  }
}
