import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentKey, createAgent, createCompany, startCore, type TestCore } from '../../helpers/core.js';

let t: TestCore;
beforeAll(async () => {
  t = await startCore({ heartbeats: false });
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/skills/heartbeat', () => {
  it('serves the heartbeat skill as markdown with every step of the protocol', async () => {
    const res = await t.api('GET', '/api/skills/heartbeat');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/markdown/);
    const md = res.text;
    expect(md.startsWith('# Headcount heartbeat skill')).toBe(true);
    for (const section of ['Who am I', 'Find my work', 'Check out the issue', 'Update the status', 'Ask for approval', 'Report that you are blocked', 'Report your costs', 'Stop when done']) {
      expect(md).toContain(section);
    }
    for (const detail of [
      '/api/agents/me',
      'assigneeAgentId=$SERVICE_AGENT_ID&status=todo,in_progress,blocked',
      'X-Service-Run-Id: $SERVICE_RUN_ID',
      'expectedStatuses',
      'Never retry',
      '/documents/plan',
      'baseRevisionId',
      'stale_revision',
      '/approvals',
      '/agent-hires',
      'ask_user_questions',
      'request_confirmation',
      '/cost-events',
      'SERVICE_TASK_ID',
    ]) {
      expect(md).toContain(detail);
    }
  });

  it('answers any authenticated caller (an agent key too), and nobody without a token', async () => {
    const companyId = await createCompany(t, 'Skillful');
    const agent = await createAgent(t, companyId, { name: 'Reader' });
    const key = await createAgentKey(t, agent.id);
    const asAgent = await t.api('GET', '/api/skills/heartbeat', { token: key });
    expect(asAgent.status).toBe(200);
    expect(asAgent.text).toContain('# Headcount heartbeat skill');
    const anonymous = await t.api('GET', '/api/skills/heartbeat', { token: null });
    expect(anonymous.status).toBe(401);
  });

  it('is listed in the OpenAPI document', async () => {
    const doc = await t.api('GET', '/api/openapi.json');
    expect(Object.keys(doc.body.paths)).toContain('/api/skills/heartbeat');
  });
});
