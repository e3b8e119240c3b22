import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { RUN_TOKEN_GRACE_SEC } from '../../../main/core/services.js';
import { createFakeAgent, eventually, fakeLines, waitForRunId } from './helpers.js';

let t: TestCore;
let companyId: string;
let skewMs = 0;
const clock = { now: () => new Date(Date.now() + skewMs) };
beforeEach(async () => {
  skewMs = 0;
  t = await startCore({ clock });
  companyId = await createCompany(t);
});
afterEach(async () => {
  await t.close();
});

describe('run tokens', () => {
  it('work during the run, refuse a different X-Service-Run-Id, and stop after the run ended + grace', async () => {
    const tokenFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'headcount-token-')), 'token.txt');
    const agent = await createFakeAgent(t, companyId, 'Holder', { FAKE_MODE: 'token', FAKE_TOKEN_FILE: tokenFile, FAKE_SLEEP_MS: '1500' });
    const issue = (await t.api('POST', `/api/companies/${companyId}/issues`, { body: { title: 'Talk about it', status: 'todo' } })).body;
    await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { body: {} });
    const run = await eventually(async () => (await t.api('GET', `/api/companies/${companyId}/heartbeat-runs?agentId=${agent.id}`)).body.items[0], 5000, 'the run');
    const lines = await eventually(async () => {
      const l = await fakeLines(t, run.id);
      return l.some((x) => x.type === 'me') ? l : undefined;
    }, 5000, 'the fake agent to call the API');
    // The fake agent's own call with its token succeeded.
    expect(lines.find((l) => l.type === 'me')).toMatchObject({ status: 200 });
    const token = readFileSync(tokenFile, 'utf8');
    expect(token).toMatch(/^eyJ/);

    // During the run, from outside, the token is the agent.
    expect((await t.api('GET', `/api/heartbeat-runs/${run.id}`)).body.status).toBe('running');
    const me = await t.api('GET', '/api/agents/me', { token });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(agent.id);
    const ok = await t.api('POST', `/api/issues/${issue.id}/comments`, { token, headers: { 'x-service-run-id': run.id }, body: { body: 'from the run' } });
    expect(ok.status).toBe(201);
    const before = t.snapshot();
    // The routes that take a run id (checkout, issue updates) refuse a header naming another run.
    for (const [method, route, body] of [
      ['POST', `/api/issues/${issue.id}/checkout`, { expectedStatuses: ['todo'] }],
      ['PATCH', `/api/issues/${issue.id}`, { title: 'forged' }],
    ] as const) {
      const mismatch = await t.api(method, route, { token, headers: { 'x-service-run-id': 'some-other-run' }, body });
      expect(mismatch.status).toBe(403);
      expect(mismatch.body).toMatchObject({ code: 'run_id_mismatch' });
    }
    expect(t.snapshot()).toEqual(before);
    const checkout = await t.api('POST', `/api/issues/${issue.id}/checkout`, { token, headers: { 'x-service-run-id': run.id }, body: { expectedStatuses: ['todo'] } });
    expect(checkout.status).toBe(200);
    expect(checkout.body).toMatchObject({ status: 'in_progress', checkoutRunId: run.id });
    const tampered = await t.api('GET', '/api/agents/me', { token: token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA') });
    expect(tampered.status).toBe(401);

    // After the run: still honoured within the grace period, refused after it.
    const finished = await waitForRunId(t, run.id);
    expect(finished.status).toBe('succeeded');
    expect((await t.api('GET', '/api/agents/me', { token })).status).toBe(200);
    skewMs = (RUN_TOKEN_GRACE_SEC + 1) * 1000;
    const expired = await t.api('GET', '/api/agents/me', { token });
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject({ code: expect.any(String) });
    expect((await t.api('POST', `/api/issues/${issue.id}/comments`, { token, headers: { 'x-service-run-id': run.id }, body: { body: 'late' } })).status).toBe(401);
  });

  it('stop at once when the agent is terminated', async () => {
    const tokenFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'headcount-token-')), 'token.txt');
    const agent = await createFakeAgent(t, companyId, 'Fired', { FAKE_MODE: 'token', FAKE_TOKEN_FILE: tokenFile, FAKE_SLEEP_MS: '1500' });
    await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { body: {} });
    const run = await eventually(async () => (await t.api('GET', `/api/companies/${companyId}/heartbeat-runs?agentId=${agent.id}`)).body.items[0], 5000, 'the run');
    await eventually(async () => ((await fakeLines(t, run.id)).some((x) => x.type === 'me') ? true : undefined), 5000, 'the token');
    const token = readFileSync(tokenFile, 'utf8');
    expect((await t.api('GET', '/api/agents/me', { token })).status).toBe(200);
    await t.api('POST', `/api/agents/${agent.id}/terminate`, {});
    expect((await t.api('GET', '/api/agents/me', { token })).status).toBe(401);
    await waitForRunId(t, run.id);
  });
});
