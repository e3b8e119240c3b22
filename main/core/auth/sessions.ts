import { randomBytes } from 'node:crypto';
import { eq, lte } from 'drizzle-orm';
import { boardSessions } from './schema.js';
import { hashKey } from './tokens.js';
import type { Clock } from '../kernel/clock.js';
import type { CoreContext } from '../context.js';

/** A browser stays signed in this long after signing in (across tabs and restarts). */
export const BOARD_SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** last_seen_at is written at most this often, so reads do not turn into writes. */
const TOUCH_EVERY_MS = 60 * 1000;

export interface BoardSession {
  id: string;
  createdAt: string;
  expiresAt: string;
}

export interface BoardSessionsService {
  /** A new session; the secret goes in the cookie and is never stored. */
  create(): { secret: string; session: BoardSession };
  /** The live session of a cookie secret, or null (unknown, signed out or expired). */
  verify(secret: string): BoardSession | null;
  /** Signs a session out; true when it existed. */
  revoke(secret: string): boolean;
  /** Signs every browser out (for example after the board token leaked). */
  revokeAll(): number;
}

export function createBoardSessionsService(ctx: Pick<CoreContext, 'db'> & { clock: Pick<Clock, 'now'> }): BoardSessionsService {
  const { db, clock } = ctx;
  const sweep = (now: Date) => db.delete(boardSessions).where(lte(boardSessions.expiresAt, now.toISOString())).run();

  return {
    create() {
      const now = clock.now();
      sweep(now);
      const secret = randomBytes(32).toString('base64url');
      const session = {
        id: hashKey(secret),
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + BOARD_SESSION_TTL_MS).toISOString(),
      };
      db.insert(boardSessions).values({ ...session, lastSeenAt: session.createdAt }).run();
      return { secret, session };
    },
    verify(secret) {
      const row = db.select().from(boardSessions).where(eq(boardSessions.id, hashKey(secret))).get();
      if (!row) return null;
      const now = clock.now();
      if (row.expiresAt <= now.toISOString()) {
        db.delete(boardSessions).where(eq(boardSessions.id, row.id)).run();
        return null;
      }
      if (now.getTime() - Date.parse(row.lastSeenAt) > TOUCH_EVERY_MS) {
        db.update(boardSessions).set({ lastSeenAt: now.toISOString() }).where(eq(boardSessions.id, row.id)).run();
      }
      return { id: row.id, createdAt: row.createdAt, expiresAt: row.expiresAt };
    },
    revoke(secret) {
      return db.delete(boardSessions).where(eq(boardSessions.id, hashKey(secret))).run().changes > 0;
    },
    revokeAll() {
      return db.delete(boardSessions).run().changes;
    },
  };
}
