import type { Agent } from '../../../api/types.js';
import type { Actor } from './merge.js';

/** Resolves agent ids to names for the timeline's sentences. */
export interface Names {
  agent: (id: string | null) => string;
  actor: (a: Actor) => string;
}

export function namesFrom(agents: readonly Agent[] | undefined): Names {
  const agent = (id: string | null) => (id ? agents?.find((a) => a.id === id)?.name ?? 'an agent' : 'nobody');
  return {
    agent,
    actor: (a) => (a.type === 'board' ? 'You' : a.type === 'agent' ? agent(a.id) : 'Headcount'),
  };
}
