import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { hashKey, secretEquals } from '../auth/tokens.js';
import type { Clock } from '../kernel/clock.js';
import { ServiceError } from '../kernel/errors.js';
import { BOARD_SESSION_TTL_MS, type BoardSessionsService } from '../auth/sessions.js';
import { errorResponses, type ZodApp } from '../kernel/route.js';
import { assertBoard } from '../kernel/access.js';

/** A login link is meant to be opened right after `serve` prints it. */
export const LOGIN_CODE_TTL_MS = 15 * 60 * 1000;

/**
 * One-time codes that a browser tab trades for a session cookie (`POST /api/board/login`). The code
 * travels in a URL (terminal scrollback, browser history), the cookie never does: a code works once
 * and expires, so a copied link is worth nothing later. Stored as hashes, like agent keys.
 */
export class BoardLoginCodes {
  private readonly codes = new Map<string, number>();

  constructor(private readonly clock: Pick<Clock, 'now'>) {}

  issue(): string {
    this.sweep();
    const code = randomBytes(24).toString('base64url');
    this.codes.set(hashKey(code), this.clock.now().getTime() + LOGIN_CODE_TTL_MS);
    return code;
  }

  /** True once for a live code; the code is spent either way. */
  redeem(code: string): boolean {
    const key = hashKey(code);
    const expires = this.codes.get(key);
    this.codes.delete(key);
    return expires !== undefined && expires > this.clock.now().getTime();
  }

  private sweep(): void {
    const now = this.clock.now().getTime();
    for (const [key, expires] of this.codes) if (expires <= now) this.codes.delete(key);
  }
}

/** The board's session cookie. Host-only (no Domain), so it is sent to this loopback host alone. */
export const SESSION_COOKIE = 'headcount_session';

/** The session secret in a Cookie header, or null. */
export function readSessionCookie(header: string | undefined): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    return /^[A-Za-z0-9_-]{1,200}$/.test(value) ? value : null;
  }
  return null;
}

/**
 * HttpOnly: page scripts (and so an injected one) never read it. SameSite=Strict: no cross-site
 * request carries it. No Secure flag: the server speaks plain HTTP on loopback, where browsers would
 * drop a Secure cookie (Chromium excepted).
 */
export function sessionCookie(secret: string, maxAgeSec: number): string {
  return `${SESSION_COOKIE}=${secret}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSec}`;
}

export const clearedSessionCookie = (): string => `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`;

export interface BoardLoginOptions {
  boardToken: string;
  loginCodes: BoardLoginCodes;
  sessions: BoardSessionsService;
}

const SessionBody = z.object({ signedIn: z.literal(true), via: z.enum(['session', 'token']), expiresAt: z.string().nullable() });

/**
 * Signing the browser board in and out. A one-time code (the link `serve` prints) or the pasted
 * board token is traded for a session cookie; the token itself never reaches the page.
 */
export function boardLoginRoutes(app: ZodApp, options: BoardLoginOptions): void {
  app.post('/api/board/login', {
    config: { public: true },
    schema: {
      tags: ['board'],
      summary: 'Trade a one-time login code (printed by `serve`) or the board token for a session cookie',
      security: [],
      body: z.union([z.strictObject({ code: z.string().min(1).max(200) }), z.strictObject({ token: z.string().min(1).max(500) })]),
      response: { 200: SessionBody, ...errorResponses },
    },
    handler: async (req, reply) => {
      if ('code' in req.body) {
        if (!options.loginCodes.redeem(req.body.code)) {
          throw new ServiceError(401, 'login_code_invalid', 'This login link has been used or has expired; run `npm start` (or `serve`) again for a new one, or paste the board token');
        }
      } else if (!secretEquals(req.body.token, options.boardToken)) {
        throw new ServiceError(401, 'unauthorized', 'This is not the board token');
      }
      const { secret, session } = options.sessions.create();
      reply.header('set-cookie', sessionCookie(secret, Math.floor(BOARD_SESSION_TTL_MS / 1000)));
      return { signedIn: true as const, via: 'session' as const, expiresAt: session.expiresAt };
    },
  });

  app.get('/api/board/session', {
    schema: { tags: ['board'], summary: 'Whether this client is signed in as the board, and how', response: { 200: SessionBody, ...errorResponses } },
    handler: async (req) => {
      assertBoard(req.actor, 'sign the board in or out');
      const secret = req.headers.authorization === undefined ? readSessionCookie(req.headers.cookie) : null;
      const session = secret ? options.sessions.verify(secret) : null;
      return { signedIn: true as const, via: session ? ('session' as const) : ('token' as const), expiresAt: session?.expiresAt ?? null };
    },
  });

  app.delete('/api/board/session', {
    schema: { tags: ['board'], summary: 'Sign out: ends the session of this cookie and clears it', response: { 204: z.null(), ...errorResponses } },
    handler: async (req, reply) => {
      assertBoard(req.actor, 'sign the board in or out');
      const secret = readSessionCookie(req.headers.cookie);
      if (secret) options.sessions.revoke(secret);
      reply.header('set-cookie', clearedSessionCookie());
      return reply.code(204).send(null);
    },
  });
}
