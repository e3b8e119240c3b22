import { cwdSessionCodec, type CwdSession } from '@service/adapter-utils';

/** A Cursor chat (`session_id` of the stream, for `--resume`) and the workspace it belongs to. */
export type CursorSession = CwdSession<'chatId'>;

export const sessionCodec = cwdSessionCodec({ idKey: 'chatId' });
