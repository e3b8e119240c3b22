import type { SessionCodec } from '@service/adapter-utils';

export interface CodexSession extends Record<string, unknown> {
  threadId: string;
  cwd: string | null;
  /**
   * The thread's token totals so far. Codex reports a resumed thread's usage cumulatively (all
   * its turns), so a heartbeat's own usage is the difference to these.
   */
  totals: { input: number; cached: number; output: number } | null;
}

const THREAD_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
const count = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);

export const sessionCodec: SessionCodec<CodexSession> = {
  deserialize(raw) {
    if (!raw || typeof raw !== 'object') return null;
    const { threadId, cwd, totals } = raw as Record<string, unknown>;
    if (typeof threadId !== 'string' || !THREAD_ID.test(threadId)) return null;
    const t = totals && typeof totals === 'object' ? (totals as Record<string, unknown>) : null;
    const parsed = t && count(t.input) !== null && count(t.cached) !== null && count(t.output) !== null ? { input: count(t.input)!, cached: count(t.cached)!, output: count(t.output)! } : null;
    return { threadId, cwd: typeof cwd === 'string' ? cwd : null, totals: parsed };
  },
  serialize: (p) => ({ threadId: p.threadId, cwd: p.cwd, totals: p.totals }),
  getDisplayId: (p) => p.threadId,
};
