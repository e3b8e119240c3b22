import type { FastifyRequest } from 'fastify';
import type { Actor } from './actor.js';
import { parseBearer, secretEquals, AGENT_KEY_PREFIX } from '../auth/tokens.js';
import { ServiceError } from '../errors.js';
import type { AgentKeysService } from '../agents/keys.js';

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
  authenticate(request: FastifyRequest): Actor;
}

/**
 * Resolves the bearer credential to an actor: the board token (instance administrator) or an
 * agent key. Run tokens join here with the heartbeat engine.
 */
export function createAuthenticator(boardToken: string, keys: AgentKeysService): Authenticator {
  return {
    authenticate(request) {
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
      if (secretEquals(token, boardToken)) return { kind: 'board' };
      throw unauthorized('This token is not valid');
    },
  };
}
