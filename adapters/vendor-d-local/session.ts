import type { SessionCodec } from '@service/adapter-utils';

export interface OpenCodeSession extends Record<string, unknown> {
  sessionId: string;
  /** OpenCode keeps sessions per project: a session is resumed only in the directory it was started in. */
  cwd: string | null;
}

const SESSION_ID = /^ses_[A-Za-z0-9]{1,120}$/;

export const sessionCodec: SessionCodec<OpenCodeSession> = {
  deserialize(raw) {
    if (!raw || typeof raw !== 'object') return null;
    const { sessionId, cwd } = raw as Record<string, unknown>;
    if (typeof sessionId !== 'string' || !SESSION_ID.test(sessionId)) return null;
    return { sessionId, cwd: typeof cwd === 'string' ? cwd : null };
  },
  serialize: (params) => ({ sessionId: params.sessionId, cwd: params.cwd }),
  getDisplayId: (params) => params.sessionId,
};
