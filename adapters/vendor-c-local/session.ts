import type { SessionCodec } from '@service/adapter-utils';

export interface GeminiSession extends Record<string, unknown> {
  sessionId: string;
  /** The Gemini CLI keeps sessions per project directory: resuming elsewhere finds nothing. */
  cwd: string | null;
}

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export const sessionCodec: SessionCodec<GeminiSession> = {
  deserialize(raw) {
    if (!raw || typeof raw !== 'object') return null;
    const { sessionId, cwd } = raw as Record<string, unknown>;
    if (typeof sessionId !== 'string' || !SESSION_ID.test(sessionId)) return null;
    return { sessionId, cwd: typeof cwd === 'string' ? cwd : null };
  },
  serialize: (p) => ({ sessionId: p.sessionId, cwd: p.cwd }),
  getDisplayId: (p) => p.sessionId,
};
