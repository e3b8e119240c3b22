import type { FastifyRequest } from 'fastify';
import type { Actor } from './actor.js';
import { parseBearer, secretEquals, AGENT_KEY_PREFIX } from '../auth/tokens.js';
import { ServiceError } from '../errors.js';
import type { AgentKeysService } from '../agents/keys.js';
import { looksLikeJwt } from '../heartbeat/run-token.js';

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
  authenticate(request: FastifyRequest): Promise<Actor>;
}

/** Checks a run token: genuine, and its run active or ended within the grace period. */
export type RunTokenCheck = (token: string) => Promise<{ agentId: string; companyId: string; runId: string } | null>;

/**
 * Resolves the bearer credential to an actor: the board token (instance administrator), an agent
 * key, or the run token of a heartbeat (a JWT the engine hands to the agent process).
 */
export function createAuthenticator(boardToken: string, keys: AgentKeysService, runTokens?: RunTokenCheck): Authenticator {
  return {
    async authenticate(request) {
      const header = request.headers.authorization;
      const token = parseBearer(header);
      if (!token) {
        throw unauthorized(header ? 'Authorization must be "Bearer <token>"' : 'Missing Authorization: Bearer <token>');
      }
      if (token.startsWith(AGENT_KEY_PREFIX)) {
        const identity = keys.authenticate(token);
        if (!identity) throw unauthorized('This agent key is not valid (unknown, revoked, or its agent was terminated)');
        return { kind: 'agent', agentId: identity.agentId, companyId: identity.companyId, keyId: identity.keyId, runId: null };
      }
      if (runTokens && looksLikeJwt(token)) {
        const run = await runTokens(token);
        if (!run) throw unauthorized('This run token is not valid, or its run has ended');
        return { kind: 'agent', agentId: run.agentId, companyId: run.companyId, keyId: null, runId: run.runId };
      }
      if (secretEquals(token, boardToken)) return { kind: 'board' };
      throw unauthorized('This token is not valid');
    },
  };
}
