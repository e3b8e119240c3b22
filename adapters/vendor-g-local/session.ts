import { cwdSessionCodec, type CwdSession } from '@service/adapter-utils';

/**
 * Qwen Code keeps sessions per project directory: resuming elsewhere finds nothing. A resumed
 * session's result line reports the usage of the whole session, so the stored `totals` let a
 * heartbeat's own usage be the difference.
 */
export type QwenSession = CwdSession<'sessionId', true>;

export const sessionCodec = cwdSessionCodec({ idKey: 'sessionId', totals: true });
