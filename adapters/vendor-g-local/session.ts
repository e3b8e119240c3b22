import type { SessionCodec } from '@service/adapter-utils';

export interface QwenSession extends Record<string, unknown> {
  sessionId: string;
  /** Qwen Code keeps sessions per project directory: resuming elsewhere finds nothing. */
  cwd: string | null;
  /**
   * The session's token totals so far. A resumed session's result line reports the usage of the
   * whole session, so a heartbeat's own usage is the difference to these.
   */
  totals: { input: number; cached: number; output: number } | null;
}

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
const count = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);

export const sessionCodec: SessionCodec<QwenSession> = {
  deserialize(raw) {
    if (!raw || typeof raw !== 'object') return null;
    const { sessionId, cwd, totals } = raw as Record<string, unknown>;
    if (typeof sessionId !== 'string' || !SESSION_ID.test(sessionId)) return null;
    const t = totals && typeof totals === 'object' ? (totals as Record<string, unknown>) : null;
    const parsed = t && count(t.input) !== null && count(t.cached) !== null && count(t.output) !== null ? { input: count(t.input)!, cached: count(t.cached)!, output: count(t.output)! } : null;
    return { sessionId, cwd: typeof cwd === 'string' ? cwd : null, totals: parsed };
  },
  serialize: (p) => ({ sessionId: p.sessionId, cwd: p.cwd, totals: p.totals }),
  getDisplayId: (p) => p.sessionId,
};
