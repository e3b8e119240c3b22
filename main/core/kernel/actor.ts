/**
 * Who is calling. The board token is the instance administrator (the founder); agent credentials
 * are bound to one agent and one company.
 */
export type Actor =
  | { kind: 'board' }
  | {
      kind: 'agent';
      agentId: string;
      companyId: string;
      /** Set when the credential is a long-lived agent key. */
      keyId: string | null;
      /** Set when the credential is a run token (heartbeat engine). */
      runId: string | null;
    };

export type AgentActor = Extract<Actor, { kind: 'agent' }>;

export const actorRef = (actor: Actor): { actorType: 'board' | 'agent'; actorId: string | null } =>
  actor.kind === 'board' ? { actorType: 'board', actorId: null } : { actorType: 'agent', actorId: actor.agentId };
