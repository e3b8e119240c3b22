import type { SessionCodec } from '@service/adapter-utils';

export interface CursorSession extends Record<string, unknown> {
  /** The chat id (`session_id` of the stream), for `--resume`. */
  chatId: string;
  /** The workspace the chat belongs to. */
  cwd: string | null;
}

const CHAT_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export const sessionCodec: SessionCodec<CursorSession> = {
  deserialize(raw) {
    if (!raw || typeof raw !== 'object') return null;
    const { chatId, cwd } = raw as Record<string, unknown>;
    if (typeof chatId !== 'string' || !CHAT_ID.test(chatId)) return null;
    return { chatId, cwd: typeof cwd === 'string' ? cwd : null };
  },
  serialize: (params) => ({ chatId: params.chatId, cwd: params.cwd }),
  getDisplayId: (params) => params.chatId,
};
