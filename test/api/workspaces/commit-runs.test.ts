import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { heartbeatRuns } from '../../../main/core/heartbeat/schema.js';
import { attributeRuns } from '../../../main/core/workspaces/commits.js';

let t: TestCore;
let companyId: string;
let agentId: string;
beforeEach(async () => {
  t = await startCore();
  companyId = await createCompany(t);
  agentId = (await createAgent(t, companyId)).id;
});
afterEach(async () => {
  await t.close();
});

async function issue(title: string): Promise<string> {
  const res = await t.api('POST', `/api/companies/${companyId}/issues`, { body: { title } });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

const day = '2026-11-26T';
function run(id: string, taskIssueId: string, startedAt: string | null, finishedAt: string | null) {
  t.core.services.ctx.db
    .insert(heartbeatRuns)
    .values({ id, companyId, agentId, status: finishedAt ? 'succeeded' : startedAt ? 'running' : 'queued', trigger: 'manual', reasons: [], taskIssueId, adapterType: 'process', queuedAt: `${day}09:00:00.000Z`, startedAt, finishedAt })
    .run();
}
const commit = (time: string) => ({ sha: time, shortSha: time, subject: time, authorName: 'a', committedAt: `${day}${time}.000Z` });

describe('the run of a workspace commit', () => {
  it('is the run of the issue whose window holds the committer time, in git\'s whole seconds', async () => {
    const [mine, other] = [await issue('Mine'), await issue('Other')];
    run('a', mine, `${day}10:00:00.300Z`, `${day}10:00:05.600Z`);
    // Starts within the second run a ended in.
    run('b', mine, `${day}10:00:05.800Z`, null);
    run('queued', mine, null, null);
    run('elsewhere', other, `${day}09:59:00.000Z`, `${day}09:59:59.000Z`);
    const now = new Date(`${day}10:01:00.000Z`);
    const times = ['10:00:00', '10:00:05', '10:00:30', '10:01:00', '09:59:30', '10:01:01'];
    expect(attributeRuns(t.core.services.ctx.db, mine, times.map(commit), now).map((c) => [c.subject, c.runId])).toEqual([
      ['10:00:00', 'a'], // git's second holds a's start
      ['10:00:05', 'a'], // both a and b hold it: a commit ends a run's work, never starts it
      ['10:00:30', 'b'], // b is still running: its window ends now
      ['10:01:00', 'b'],
      ['09:59:30', null], // only another issue's run was going on
      ['10:01:01', null],
    ]);
  });
});
