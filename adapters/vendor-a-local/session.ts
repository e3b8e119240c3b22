import type { SessionCodec } from '@service/adapter-utils';

export interface ClaudeSession extends Record<string, unknown> {
  sessionId: string;
  /** Claude Code keeps sessions per working directory: resuming elsewhere finds nothing. */
  cwd: string | null;
}

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export const sessionCodec: SessionCodec<ClaudeSession> = {
  deserialize(raw) {
    if (!raw || typeof raw !== 'object') return null;
    const { sessionId, cwd } = raw as Record<string, unknown>;
    if (typeof sessionId !== 'string' || !SESSION_ID.test(sessionId)) return null;
    return { sessionId, cwd: typeof cwd === 'string' ? cwd : null };
  },
  serialize: (params) => ({ sessionId: params.sessionId, cwd: params.cwd }),
  getDisplayId: (params) => params.sessionId,
};
