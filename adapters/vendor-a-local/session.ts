import { cwdSessionCodec, type CwdSession } from '@service/adapter-utils';

/** Claude Code keeps sessions per working directory: resuming elsewhere finds nothing. */
export type ClaudeSession = CwdSession<'sessionId'>;

export const sessionCodec = cwdSessionCodec({ idKey: 'sessionId' });
