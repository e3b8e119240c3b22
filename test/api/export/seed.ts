import { createAgent, createAgentKey, createCompany, type TestCore } from '../../helpers/core.js';

export const SECRET_VALUE = 'sk-export-test-ABCDEF0123456789-never-in-clear';

async function ok<T = any>(p: Promise<{ status: number; text: string; body: T }>, expected = [200, 201, 202]): Promise<T> {
  const res = await p;
  if (!expected.includes(res.status)) throw new Error(`${res.status} ${res.text}`);
  return res.body;
}

async function waitQuiet(t: TestCore, companyId: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const sqlite = t.core.database.sqlite;
    const active = sqlite.prepare("SELECT count(*) AS n FROM heartbeat_runs WHERE company_id = ? AND status IN ('queued', 'running')").get(companyId) as { n: number };
    const pending = sqlite.prepare("SELECT count(*) AS n FROM wake_requests WHERE company_id = ? AND status = 'pending'").get(companyId) as { n: number };
    const runs = sqlite.prepare('SELECT count(*) AS n FROM heartbeat_runs WHERE company_id = ?').get(companyId) as { n: number };
    if (active.n === 0 && pending.n === 0 && runs.n > 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('runs of the seeded company did not settle');
}

/**
 * A company with something in every area: agents (with a secret reference), keys, a project, a
 * goal, issues with a parent, comments with a mention, a document with two revisions, an
 * interaction, an attachment and a logo, a cost event, a secret, an approval with a comment,
 * schedules and a finished run with a transcript. Waits until its runs have ended.
 */
export async function seedCompany(t: TestCore, name = 'Exported Co') {
  const companyId = await createCompany(t, name);
  const api = t.api;
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
  const logo = new FormData();
  logo.append('file', new Blob([png], { type: 'image/png' }), 'logo.png');
  await ok(api('POST', `/api/companies/${companyId}/logo`, { raw: logo }));
  const secret = await ok(api('POST', `/api/companies/${companyId}/secrets`, { body: { name: 'API_TOKEN', value: SECRET_VALUE } }));
  const ceo = await createAgent(t, companyId, {
    name: 'Ceo',
    role: 'ceo',
    adapterConfig: { command: 'sh', args: ['-c', 'echo out line; echo err line >&2'], env: { TOKEN: { type: 'secret_ref', secretId: secret.id, version: 'latest' } } },
  });
  const eng = await createAgent(t, companyId, { name: 'Eng', role: 'engineer' });
  const engKey = await createAgentKey(t, eng.id);
  const ceoKey = await createAgentKey(t, ceo.id);
  const project = await ok(api('POST', `/api/companies/${companyId}/projects`, { body: { name: 'Project X' } }));
  const goal = await ok(api('POST', `/api/companies/${companyId}/goals`, { body: { title: 'Goal Y' } }));
  const parent = await ok(api('POST', `/api/companies/${companyId}/issues`, { body: { title: 'Parent', status: 'todo', projectId: project.id, goalId: goal.id } }));
  const child = await ok(api('POST', `/api/companies/${companyId}/issues`, { body: { title: 'Child', status: 'todo', parentId: parent.id } }));
  // A blocked issue: the inbox's count of them is derived, rebuilt as the import's rows arrive.
  await ok(api('POST', `/api/companies/${companyId}/issues`, { body: { title: 'Stuck', status: 'blocked' } }));
  await ok(api('POST', `/api/issues/${child.id}/checkout`, { token: engKey, body: { expectedStatuses: ['todo'] } }));
  await ok(api('POST', `/api/issues/${child.id}/comments`, { token: engKey, body: { body: '@Ceo have a look' } }));
  const doc = await ok(api('PUT', `/api/issues/${parent.id}/documents/plan`, { body: { title: 'Plan', format: 'markdown', body: '# v1' } }));
  await ok(api('PUT', `/api/issues/${parent.id}/documents/plan`, { body: { title: 'Plan', format: 'markdown', body: '# v2 ünïcode', baseRevisionId: doc.revisionId } }));
  const plan = await ok(api('GET', `/api/issues/${parent.id}/documents/plan`));
  await ok(
    api('POST', `/api/issues/${parent.id}/interactions`, {
      token: ceoKey,
      body: {
        kind: 'request_confirmation',
        idempotencyKey: 'confirm-1',
        title: 'Confirm',
        payload: { version: 1, prompt: 'OK?', target: { type: 'issue_document', issueId: parent.id, documentId: plan.id, key: 'plan', revisionId: plan.revisionId, revisionNumber: plan.revisionNumber } },
      },
    }),
  );
  const attachment = new FormData();
  const attachmentBytes = Buffer.from('a,b\n1,2\n'.repeat(200));
  attachment.append('file', new Blob([attachmentBytes], { type: 'text/csv' }), 'table.csv');
  await ok(api('POST', `/api/companies/${companyId}/issues/${parent.id}/attachments`, { raw: attachment }));
  await ok(api('POST', `/api/companies/${companyId}/cost-events`, { body: { agentId: eng.id, provider: 'p', model: 'm', inputTokens: 10, outputTokens: 5, costCents: 1.5, issueId: parent.id } }));
  const approval = await ok(
    api('POST', `/api/companies/${companyId}/approvals`, { token: ceoKey, body: { type: 'approve_ceo_strategy', requestedByAgentId: ceo.id, payload: { version: 1, title: 'S', strategyMarkdown: '# S' }, issueIds: [parent.id] } }),
  );
  await ok(api('POST', `/api/approvals/${approval.id}/comments`, { body: { body: 'fine' } }));
  await ok(api('PUT', `/api/agents/${eng.id}/heartbeat-settings`, { body: { intervalSec: 3600, enabled: false } }));
  await ok(api('POST', `/api/agents/${ceo.id}/heartbeat/invoke`, { body: { issueId: parent.id } }));
  await waitQuiet(t, companyId);
  return { companyId, ceo, eng, parent, child, secret, attachmentBytes };
}
