import type { ApiClient } from './client.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface AgentSummary {
  id: string;
  name: string;
  status: string;
  companyId: string;
}

/**
 * An agent named on the command line: its id as is, or its name (case-insensitive, terminated agents
 * left out), looked up in `--company` (name or id) or in every company the token can see. Two agents
 * of the same name are refused with both ids, never guessed between.
 */
export async function resolveAgentRef(api: ApiClient, ref: string, company?: string): Promise<string> {
  if (UUID.test(ref)) return ref;
  const companies = await api.all<{ id: string; name: string }>('/api/companies');
  const scope = company ? companies.filter((c) => c.id === company || c.name.toLowerCase() === company.toLowerCase()) : companies;
  if (company && scope.length === 0) throw new Error(`No company "${company}"; companies: ${companies.map((c) => c.name).join(', ') || 'none'}`);
  const found: (AgentSummary & { companyName: string })[] = [];
  for (const c of scope) {
    const agents = await api.request<AgentSummary[]>('GET', `/api/companies/${c.id}/agents`);
    for (const a of agents) if (a.status !== 'terminated' && a.name.toLowerCase() === ref.toLowerCase()) found.push({ ...a, companyName: c.name });
  }
  if (found.length === 1) return found[0]!.id;
  if (found.length === 0) throw new Error(`No agent named "${ref}"${company ? ` in ${company}` : ''}; pass its name or id (see the board's Agents page)`);
  const list = found.map((a) => `${a.name} in ${a.companyName} (${a.id})`).join('; ');
  throw new Error(`"${ref}" names ${found.length} agents: ${list}. Pass the id, or --company <name>`);
}

/** The newest run of an agent (what `run watch <agent>` follows). */
export async function newestRunOf(api: ApiClient, agentId: string): Promise<string> {
  const agent = await api.request<{ companyId: string; name: string }>('GET', `/api/agents/${encodeURIComponent(agentId)}`);
  const { items } = await api.request<{ items: { id: string }[] }>('GET', `/api/companies/${agent.companyId}/heartbeat-runs?agentId=${encodeURIComponent(agentId)}&limit=1`);
  if (!items[0]) throw new Error(`${agent.name} has no runs yet; start one with: headcount heartbeat invoke "${agent.name}"`);
  return items[0].id;
}

export const isUuid = (value: string): boolean => UUID.test(value);
