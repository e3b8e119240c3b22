import type { SessionCodec } from './types.js';

/** Token totals of a session so far, for CLIs that report a resumed session's usage cumulatively. */
export interface SessionTotals {
  input: number;
  cached: number;
  output: number;
}

/** A stored CLI session: its id under the vendor's own key, and the folder it belongs to. */
export type CwdSession<K extends string, T extends boolean = false> = Record<string, unknown> &
  { [key in K]: string } & { cwd: string | null } & (T extends true ? { totals: SessionTotals | null } : unknown);

/** Session ids the CLIs print: a letter or digit, then letters, digits, `_` and `-`. */
export const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

const count = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);

function readTotals(raw: unknown): SessionTotals | null {
  const t = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : null;
  const input = count(t?.input);
  const cached = count(t?.cached);
  const output = count(t?.output);
  return input !== null && cached !== null && output !== null ? { input, cached, output } : null;
}

/**
 * The session codec of a CLI that keeps sessions per working directory (resuming elsewhere finds
 * nothing): `{ <idKey>, cwd }`, plus the session's token `totals` where usage is cumulative.
 */
export function cwdSessionCodec<K extends string, T extends boolean = false>(options: { idKey: K; idPattern?: RegExp; totals?: T }): SessionCodec<CwdSession<K, T>> {
  const { idKey, idPattern = SESSION_ID } = options;
  return {
    deserialize(raw) {
      if (!raw || typeof raw !== 'object') return null;
      const r = raw as Record<string, unknown>;
      const id = r[idKey];
      if (typeof id !== 'string' || !idPattern.test(id)) return null;
      const session: Record<string, unknown> = { [idKey]: id, cwd: typeof r.cwd === 'string' ? r.cwd : null };
      if (options.totals) session.totals = readTotals(r.totals);
      return session as CwdSession<K, T>;
    },
    serialize: (p) => ({ [idKey]: p[idKey], cwd: p.cwd, ...(options.totals ? { totals: p.totals ?? null } : {}) }),
    getDisplayId: (p) => p[idKey],
  };
}

/**
 * Session resume: the stored session when it belongs to this working directory (or names none),
 * else null, so the run starts fresh instead of failing on a session the CLI cannot find there.
 */
export function resumableSession<P extends { cwd: string | null }>(codec: SessionCodec<P>, raw: unknown, cwd: string): P | null {
  const stored = codec.deserialize(raw);
  return stored && (stored.cwd === null || stored.cwd === cwd) ? stored : null;
}

/**
 * This heartbeat's own tokens when the CLI reports a resumed session's usage cumulatively: the
 * totals now minus the stored ones (the whole total when the session is new or the numbers fell).
 */
export function ownUsage(total: SessionTotals, previous: SessionTotals | null, sameSession: boolean): SessionTotals {
  if (!sameSession || !previous || total.input < previous.input || total.output < previous.output || total.cached < previous.cached) return total;
  return { input: total.input - previous.input, cached: total.cached - previous.cached, output: total.output - previous.output };
}
