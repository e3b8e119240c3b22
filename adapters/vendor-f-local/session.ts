import { cwdSessionCodec, type CwdSession } from '@service/adapter-utils';

/** Pi files sessions per working directory and asks (interactively) before using another's. */
export type PiSession = CwdSession<'sessionId'>;

export const sessionCodec = cwdSessionCodec({ idKey: 'sessionId' });
