import type { SessionCodec } from '@service/adapter-utils';

export interface GatewaySession extends Record<string, unknown> {
  /** The gateway's conversation key for this agent and task, as the gateway returned it. */
  sessionKey: string;
}

const SESSION_KEY = /^[A-Za-z0-9][A-Za-z0-9._:@/-]{0,255}$/;

export const sessionCodec: SessionCodec<GatewaySession> = {
  deserialize(raw) {
    if (!raw || typeof raw !== 'object') return null;
    const { sessionKey } = raw as Record<string, unknown>;
    return typeof sessionKey === 'string' && SESSION_KEY.test(sessionKey) ? { sessionKey } : null;
  },
  serialize: (params) => ({ sessionKey: params.sessionKey }),
  getDisplayId: (params) => params.sessionKey,
};

export const isSessionKey = (v: unknown): v is string => typeof v === 'string' && SESSION_KEY.test(v);
