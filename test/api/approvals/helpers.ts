import { createAgent, createAgentKey, createCompany, startCore, type ApiResponse, type TestCore } from '../../helpers/core.js';
import { tickingClock, useKeyAndSettle } from '../agents/helpers.js';

export { MISSING_ID, allActivity, expectError, problemPaths, useKeyAndSettle } from '../agents/helpers.js';

/**
 * Acme with a CEO and an engineer (both with keys), and a foreign company with its own agent,
 * on a core whose clock ticks so orderings are deterministic.
 */
export interface World {
  t: TestCore;
  company: string;
  other: string;
  ceo: any;
  engineer: any;
  foreign: any;
  ceoKey: string;
  engineerKey: string;
  foreignKey: string;
}

export async function startWorld(): Promise<World> {
  // The state machine is under test, not runs: the wakes a decision stores stay rows to assert on,
  // with no heartbeat started at once (it would write while a test compares snapshots).
  const t = await startCore({ clock: tickingClock(), heartbeats: false });
  const company = await createCompany(t, 'Acme');
  const other = await createCompany(t, 'Other');
  const ceo = await createAgent(t, company, { name: 'Ada', role: 'ceo' });
  const engineer = await createAgent(t, company, { name: 'Grace', role: 'engineer', reportsTo: ceo.id });
  const foreign = await createAgent(t, other, { name: 'Foreign' });
  const ceoKey = await createAgentKey(t, ceo.id);
  const engineerKey = await createAgentKey(t, engineer.id);
  const foreignKey = await createAgentKey(t, foreign.id);
  // A key records its first use after the response; settle that now so snapshots later are exact.
  for (const key of [ceoKey, engineerKey, foreignKey]) await useKeyAndSettle(t, key);
  return { t, company, other, ceo, engineer, foreign, ceoKey, engineerKey, foreignKey };
}

export const strategy = (over: Record<string, unknown> = {}) => ({
  version: 1,
  title: 'Win the SMB market',
  strategyMarkdown: '# Strategy\n\nSell to small businesses first.',
  ...over,
});

export const hireBody = (w: World, over: Record<string, unknown> = {}) => ({
  name: 'Linus',
  role: 'engineer',
  reportsTo: w.ceo.id,
  capabilities: 'kernels',
  budgetMonthlyCents: 5000,
  adapterType: 'process',
  adapterConfig: { command: 'echo' },
  reason: 'We need a second engineer',
  ...over,
});

const tokenOpt = (token?: string) => (token ? { token } : {});

/** Files an approve_ceo_strategy request (by the CEO's key unless told) and returns it. */
export async function requestStrategy(w: World, over: Record<string, unknown> = {}, token: string = w.ceoKey): Promise<any> {
  const res = await w.t.api('POST', `/api/companies/${w.company}/approvals`, {
    token,
    body: { type: 'approve_ceo_strategy', requestedByAgentId: w.ceo.id, payload: strategy(), ...over },
  });
  if (res.status !== 201) throw new Error(`request strategy: ${res.status} ${res.text}`);
  return res.body;
}

/** Requests a hire (by the CEO's key unless told) and returns {agent, approval}. */
export async function requestHire(w: World, over: Record<string, unknown> = {}, token: string = w.ceoKey): Promise<{ agent: any; approval: any }> {
  const res = await w.t.api('POST', `/api/companies/${w.company}/agent-hires`, { token, body: hireBody(w, over) });
  if (res.status !== 201) throw new Error(`request hire: ${res.status} ${res.text}`);
  return res.body;
}

export type Operation = 'approve' | 'reject' | 'request-revision' | 'resubmit';

/** Runs one operation on an approval; decisions default to the board, resubmit needs a payload. */
export function act(w: World, id: string, op: Operation, body?: unknown, token?: string): Promise<ApiResponse<any>> {
  return w.t.api('POST', `/api/approvals/${id}/${op}`, { ...(body !== undefined ? { body } : {}), ...tokenOpt(token) });
}

export const getApproval = async (w: World, id: string, token?: string): Promise<any> => {
  const res = await w.t.api('GET', `/api/approvals/${id}`, tokenOpt(token));
  if (res.status !== 200) throw new Error(`get approval: ${res.status} ${res.text}`);
  return res.body;
};

export const getAgent = async (w: World, id: string): Promise<any> => (await w.t.api('GET', `/api/agents/${id}`)).body;

/** Rows straight from the database file. */
export const rows = (t: TestCore, sql: string, ...params: unknown[]): any[] => t.core.database.sqlite.prepare(sql).all(...params);

/** Wake requests of an agent, oldest first. */
export const wakes = (t: TestCore, agentId: string): any[] => rows(t, 'SELECT * FROM wake_requests WHERE agent_id = ? ORDER BY rowid', agentId);

/** The `history` of an approval as [from, to] pairs. */
export const steps = (approval: any): [string | null, string][] => approval.history.map((h: any) => [h.fromStatus, h.toStatus]);
