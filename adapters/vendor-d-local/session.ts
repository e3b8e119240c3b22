import { cwdSessionCodec, type CwdSession } from '@service/adapter-utils';

/** OpenCode keeps sessions per project: a session is resumed only in the directory it was started in. */
export type OpenCodeSession = CwdSession<'sessionId'>;

export const sessionCodec = cwdSessionCodec({ idKey: 'sessionId', idPattern: /^ses_[A-Za-z0-9]{1,120}$/ });
