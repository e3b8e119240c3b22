import { chmodSync } from 'node:fs';
import path from 'node:path';
import type { Board } from './fixtures.js';

const FAKE_CLAUDE = path.join(import.meta.dirname, 'runs-fake-claude.mjs');

/** A company and a Claude-Code-type agent whose CLI is the fake stream-json printer. */
export async function setupAgent(board: Board, env: Record<string, string>) {
  chmodSync(FAKE_CLAUDE, 0o755);
  const company = await board.api<{ id: string }>('POST', '/api/companies', { name: 'Transcript Labs', description: 'Runs long agent sessions.', budgetMonthlyCents: 100_00 });
  const agent = await board.api<{ id: string }>('POST', `/api/companies/${company.id}/agents`, {
    name: 'Tess',
    role: 'engineer',
    title: 'Staff Engineer',
    adapterType: 'vendor_a_local',
    adapterConfig: { command: FAKE_CLAUDE, pty: false, timeoutSec: 600, env },
  });
  return { companyId: company.id, agentId: agent.id };
}

export async function startRun(board: Board, companyId: string, agentId: string): Promise<string> {
  await board.api('POST', `/api/agents/${agentId}/heartbeat/invoke`, {});
  for (let i = 0; i < 200; i++) {
    const runs = await board.api<{ items: { id: string }[] }>('GET', `/api/companies/${companyId}/heartbeat-runs?agentId=${agentId}`);
    if (runs.items[0]) return runs.items[0].id;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the run did not start');
}

