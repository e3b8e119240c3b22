import { cwdSessionCodec, type CwdSession } from '@service/adapter-utils';

/**
 * A Codex thread, resumed only in the directory it was started in. Codex reports a resumed
 * thread's usage cumulatively (all its turns), so the stored `totals` let a heartbeat's own usage
 * be the difference.
 */
export type CodexSession = CwdSession<'threadId', true>;

export const sessionCodec = cwdSessionCodec({ idKey: 'threadId', totals: true });
