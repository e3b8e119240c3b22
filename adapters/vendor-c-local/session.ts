import { cwdSessionCodec, type CwdSession } from '@service/adapter-utils';

/** The Gemini CLI keeps sessions per project directory: resuming elsewhere finds nothing. */
export type GeminiSession = CwdSession<'sessionId'>;

export const sessionCodec = cwdSessionCodec({ idKey: 'sessionId' });
