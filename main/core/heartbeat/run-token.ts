import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

export const RUN_TOKEN_ISSUER = 'headcount';

export interface RunTokenClaims {
  agentId: string;
  companyId: string;
  runId: string;
}

/**
 * Run tokens: HS256 JWTs carrying agent, company and run id, signed with a key that lives only in
 * this process. A restart therefore invalidates every token, which is right: runs of the previous
 * process are lost. Validity beyond the signature (the run still active, or ended within the grace
 * period) is checked against the database on every request.
 */
export class RunTokens {
  private readonly key = randomBytes(32);

  async issue(claims: RunTokenClaims, maxLifetimeSec: number): Promise<string> {
    return new SignJWT({ cid: claims.companyId, rid: claims.runId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.agentId)
      .setIssuer(RUN_TOKEN_ISSUER)
      .setIssuedAt()
      .setExpirationTime(`${Math.max(60, Math.ceil(maxLifetimeSec))}s`)
      .sign(this.key);
  }

  /** The claims of a genuine, unexpired token; null for anything else. */
  async verify(token: string): Promise<RunTokenClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { issuer: RUN_TOKEN_ISSUER, algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || typeof payload.cid !== 'string' || typeof payload.rid !== 'string') return null;
      return { agentId: payload.sub, companyId: payload.cid, runId: payload.rid };
    } catch {
      return null;
    }
  }
}

export const looksLikeJwt = (token: string): boolean => /^eyJ[\w-]*\.[\w-]+\.[\w-]+$/.test(token);
