import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { founderRepo, runOn, shellAgent } from './helpers.js';

let t: TestCore;
let companyId: string;
beforeEach(async () => {
  t = await startCore();
  companyId = await createCompany(t);
});
afterEach(async () => {
  await t.close();
});

describe('workspace retention and disk use', () => {
  it('removes finished issues\' workspaces once merged, past the company budget or after the retention time, never one with unmerged or uncommitted work', async () => {
    const repo = founderRepo();
    const projectId = (await t.api('POST', `/api/companies/${companyId}/projects`, { body: { name: 'App', workspace: { repoPath: repo } } })).body.id;
    const issue = async (title: string) => (await t.api('POST', `/api/companies/${companyId}/issues`, { body: { title, status: 'todo', projectId } })).body as { id: string };
    const committer = await shellAgent(t, companyId, 'committer', 'set -e; echo "$SERVICE_TASK_ID" > "$SERVICE_TASK_ID.txt"; git add -A; git commit -qm work');
    const idle = await shellAgent(t, companyId, 'idle', 'true');
    const scribbler = await shellAgent(t, companyId, 'scribbler', 'echo draft > draft.txt');
    const [merged, unmerged, empty, dirty, open] = [await issue('merged'), await issue('unmerged'), await issue('empty'), await issue('dirty'), await issue('open')];
    for (const [agent, i] of [[committer, merged], [committer, unmerged], [idle, empty], [scribbler, dirty], [idle, open]] as const) {
      expect((await runOn(t, companyId, agent.id, i.id)).status).toBe('succeeded');
    }
    expect((await t.api('POST', `/api/issues/${merged.id}/workspace/merge`)).status).toBe(200);
    const paths = new Map<string, string>();
    for (const i of [merged, unmerged, empty, dirty, open]) paths.set(i.id, (await t.api('GET', `/api/issues/${i.id}/workspace`)).body.path);
    const disk = (await t.api('GET', '/api/system/disk')).body;
    expect(disk.workspacesByCompany).toEqual([{ companyId, bytes: expect.any(Number) }]);
    expect(disk.workspaces).toBeGreaterThan(0);

    for (const i of [merged, unmerged, empty, dirty]) expect((await t.api('PATCH', `/api/issues/${i.id}`, { body: { status: 'done' } })).status).toBe(200);
    // Within the retention time only the merged one goes.
    expect(await t.core.services.workspaces.sweep()).toEqual([paths.get(merged.id)]);
    // Over the company's workspace budget (shown with its use), the finished one with nothing in it
    // goes before its time; unmerged commits, uncommitted files and open issues stay even then.
    expect((await t.api('PATCH', '/api/settings', { body: { limits: { workspaceCompanyBudgetBytes: 1 } } })).status).toBe(200);
    const use = ((await t.api('GET', '/api/system/disk')).body.companies as any[]).find((c) => c.companyId === companyId);
    expect(use).toMatchObject({ workspaceBudgetBytes: 1 });
    expect(use.workspaceBytes).toBeGreaterThan(1);
    expect(await t.core.services.workspaces.sweep()).toEqual([paths.get(empty.id)]);
    for (const i of [unmerged, dirty, open]) expect(existsSync(paths.get(i.id)!)).toBe(true);
    // After the retention time, nothing more goes: what is left holds work or is open.
    const later = new Date(Date.now() + 25 * 3600_000);
    expect(await t.core.services.workspaces.sweep(later)).toEqual([]);
    for (const i of [unmerged, dirty, open]) expect(existsSync(paths.get(i.id)!)).toBe(true);
    const actions = ((await t.api('GET', `/api/companies/${companyId}/activity?limit=200`)).body.items as any[]).map((e) => e.action);
    expect(actions.filter((a) => a === 'workspace.removed')).toHaveLength(2);
    const overBudget = ((await t.api('GET', `/api/companies/${companyId}/activity?limit=200`)).body.items as any[]).filter((e) => e.action === 'workspace.removed' && /over their budget/.test(e.summary));
    expect(overBudget).toHaveLength(1);
  });
});
