import { createAgent, createAgentKey, createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { createIssue } from '../issues/helpers.js';
import { sleep } from '../heartbeat/helpers.js';

export interface LimitsWorld {
  t: TestCore;
  companyId: string;
  agent: { id: string; name: string };
  key: string;
  issue: { id: string; identifier: string };
}

export async function startLimitsWorld(): Promise<LimitsWorld> {
  const t = await startCore();
  const companyId = await createCompany(t, 'Acme');
  const agent = await createAgent(t, companyId, { name: 'Flood' });
  const key = await createAgentKey(t, agent.id);
  const issue = await createIssue(t, companyId);
  return { t, companyId, agent, key, issue };
}

/** Changes limits as the board; throws unless accepted. */
export async function setLimits(t: TestCore, limits: Record<string, number>): Promise<any> {
  const res = await t.api('PATCH', '/api/settings', { body: { limits } });
  if (res.status !== 200) throw new Error(`set limits: ${res.status} ${res.text}`);
  return res.body.limits;
}

/** The `limit.exceeded` activity entries of a company, newest first (written just after the refusal). */
export async function limitHits(t: TestCore, companyId: string, expected = 1): Promise<any[]> {
  for (let i = 0; i < 200; i++) {
    const items = (await t.api('GET', `/api/companies/${companyId}/activity?action=limit.exceeded`)).body.items as any[];
    if (items.length >= expected) return items;
    await sleep(10);
  }
  return (await t.api('GET', `/api/companies/${companyId}/activity?action=limit.exceeded`)).body.items;
}
