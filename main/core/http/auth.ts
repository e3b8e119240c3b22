import type { FastifyRequest } from 'fastify';
import type { Actor } from '../kernel/actor.js';
import { parseBearer, secretMatcher, AGENT_KEY_PREFIX } from '../auth/tokens.js';
import { ServiceError } from '../kernel/errors.js';
import type { AgentKeysService } from '../agents/keys.js';
import { looksLikeJwt } from '../heartbeat/run-token.js';
import type { BoardSessionsService } from '../auth/sessions.js';
import { readSessionCookie } from './board-login.js';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor;
  }
  interface FastifyContextConfig {
    /** Routes reachable without a bearer token (health only). */
    public?: boolean;
  }
}

const unauthorized = (message: string) => new ServiceError(401, 'unauthorized', message);

export interface Authenticator {
  /** Synchronous for the board token, sessions and agent keys; only a run token's check is awaited. */
  authenticate(request: FastifyRequest): Actor | Promise<Actor>;
}

/** Checks a run token: genuine, and its run active or ended within the grace period. */
export type RunTokenCheck = (token: string) => Promise<{ agentId: string; companyId: string; runId: string } | null>;

/** Methods that change state: a cookie alone never authorises them (see below). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface SessionAuth {
  sessions: BoardSessionsService;
  /** The browser origins of this server (host-guard.ts). */
  origins: () => ReadonlySet<string>;
}

/**
 * Resolves the credential to an actor: the board token (instance administrator), an agent key, or
 * the run token of a heartbeat (a JWT the engine hands to the agent process), all as a bearer
 * header; without a header, the board's session cookie (a browser signed in from the login link).
 */
export function createAuthenticator(boardToken: string, keys: AgentKeysService, runTokens?: RunTokenCheck, sessionAuth?: SessionAuth): Authenticator {
  const isBoardToken = secretMatcher(boardToken);
  return {
    authenticate(request) {
      const header = request.headers.authorization;
      const token = parseBearer(header);
      const cookie = header === undefined && sessionAuth ? readSessionCookie(request.headers.cookie) : null;
      if (cookie !== null && sessionAuth) return authenticateSession(request, cookie, sessionAuth);
      if (!token) {
        throw unauthorized(header ? 'Authorization must be "Bearer <token>"' : 'Missing Authorization: Bearer <token>');
      }
      if (token.startsWith(AGENT_KEY_PREFIX)) {
        const identity = keys.authenticate(token);
        if (!identity) throw unauthorized('This agent key is not valid (unknown, revoked, or its agent was terminated)');
        return { kind: 'agent', agentId: identity.agentId, companyId: identity.companyId, keyId: identity.keyId, runId: null };
      }
      if (runTokens && looksLikeJwt(token)) {
        return runTokens(token).then((run): Actor => {
          if (!run) throw unauthorized('This run token is not valid, or its run has ended');
          return { kind: 'agent', agentId: run.agentId, companyId: run.companyId, keyId: null, runId: run.runId };
        });
      }
      if (isBoardToken(token)) return { kind: 'board' };
      throw unauthorized('This token is not valid');
    },
  };
}

/**
 * A cookie is sent by the browser on its own, so it must not be enough to change anything: besides
 * SameSite=Strict (no cookie on cross-site requests in current browsers), an unsafe request needs an
 * Origin header naming this server. Browsers always send Origin on POST/PATCH/PUT/DELETE, so only a
 * forged or very old client lacks it; the host guard has already refused foreign origins.
 */
function authenticateSession(request: FastifyRequest, secret: string, auth: SessionAuth): Actor {
  const session = auth.sessions.verify(secret);
  if (!session) throw new ServiceError(401, 'session_expired', 'Your board session has ended (signed out or expired); sign in again');
  if (!SAFE_METHODS.has(request.method.toUpperCase())) {
    const origin = request.headers.origin;
    if (origin === undefined || !auth.origins().has(origin.trim().toLowerCase())) {
      throw new ServiceError(403, 'origin_required', 'A request signed in by the session cookie that changes something must come from the board page (same-origin Origin header)');
    }
  }
  return { kind: 'board' };
}
