import { afterEach, describe, expect, it } from 'vitest';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { readLog, waitForRun } from '../heartbeat/helpers.js';
import { startGatewayServer, type GatewayRun, type GatewayServer } from '../../fixtures/gateway-server.js';

let t: TestCore | undefined;
let gw: GatewayServer | undefined;
afterEach(async () => {
  await t?.close();
  await gw?.close();
  t = undefined;
  gw = undefined;
});

/** The remote agent: works the heartbeat with the run token it was handed, like the skill teaches. */
async function remoteAgent(run: GatewayRun): Promise<void> {
  const env = run.request.env;
  const call = async (method: string, route: string, body?: unknown) => {
    const res = await fetch(`${env.SERVICE_API_URL}${route}`, {
      method,
      headers: { authorization: `Bearer ${env.SERVICE_API_KEY}`, 'x-service-run-id': env.SERVICE_RUN_ID!, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    run.log(`${method} ${route} → ${res.status}\n`);
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  const sessionKey = run.request.sessionKey ?? `gw:${run.request.agentId}:${env.SERVICE_TASK_ID}`;
  run.send({ type: 'accepted', runId: run.request.runId, sessionKey });
  if (run.request.sessionKey) {
    run.send({ type: 'result', status: 'succeeded', summary: `Resumed ${sessionKey}: nothing left.`, sessionKey });
    return;
  }
  const me = await call('GET', '/api/agents/me');
  const task = env.SERVICE_TASK_ID!;
  const checkout = await call('POST', `/api/issues/${task}/checkout`, { expectedStatuses: ['todo'] });
  await call('POST', `/api/issues/${task}/comments`, { body: `Working on it through the gateway as ${me.body.name}.` });
  await call('PATCH', `/api/issues/${task}`, { status: 'done', comment: 'Done remotely.' });
  run.send({ type: 'usage', provider: 'anthropic', model: 'claude-sonnet-4-5', inputTokens: 2000, outputTokens: 300, cachedInputTokens: 1000, costUsd: 0.05 });
  run.send({ type: 'result', status: checkout.status === 200 ? 'succeeded' : 'failed', summary: 'Finished the task remotely.', sessionKey });
}

describe('vendor_h_gateway through the heartbeat engine', () => {
  it('a remote agent works the heartbeat with its run token; the next heartbeat resumes its session key', async () => {
    gw = await startGatewayServer({ token: 'gw-scripted-token', agents: ['builder'], handler: remoteAgent });
    t = await startCore();
    const company = await createCompany(t);
    const secret = await t.api('POST', `/api/companies/${company}/secrets`, { body: { name: 'gateway-token', value: 'gw-scripted-token' } });
    expect(secret.status).toBe(201);
    const adapterConfig = { url: gw.wsUrl, agentId: 'builder', timeoutSec: 60, env: { GATEWAY_TOKEN: { type: 'secret_ref', secretId: secret.body.id, version: 'latest' } } };
    const probe = await t.api('POST', `/api/companies/${company}/adapters/vendor_h_gateway/test-environment`, { body: { adapterConfig } });
    expect(probe.status).toBe(200);
    expect(probe.body).toMatchObject({ adapterType: 'vendor_h_gateway', status: 'pass' });
    expect(probe.body.checks.map((c: any) => c.code)).toEqual(['url_valid', 'gateway_reachable']);

    const agent = (await t.api('POST', `/api/companies/${company}/agents`, { body: { name: 'Remy', role: 'engineer', adapterType: 'vendor_h_gateway', adapterConfig } })).body;
    const issue = (await t.api('POST', `/api/companies/${company}/issues`, { body: { title: 'Ship the gateway', status: 'todo', assigneeAgentId: agent.id } })).body;
    const run = await waitForRun(t, company, agent.id, undefined, 30_000);
    expect(run).toMatchObject({ status: 'succeeded', adapterType: 'vendor_h_gateway', taskIssueId: issue.id, summary: 'Finished the task remotely.', costStatus: 'reported', costCents: 5 });
    expect(run.usage).toMatchObject({ provider: 'anthropic', model: 'claude-sonnet-4-5', inputTokens: 2000, outputTokens: 300, cachedInputTokens: 1000 });
    expect((await t.api('GET', `/api/issues/${issue.id}`)).body.status).toBe('done');
    const comments = (await t.api('GET', `/api/issues/${issue.id}/comments`)).body;
    expect((comments.items ?? comments).map((c: any) => c.body)).toEqual(expect.arrayContaining(['Working on it through the gateway as Remy.', 'Done remotely.']));
    const sessionKey = `gw:builder:${issue.identifier}`;
    expect(run.sessionParams).toEqual({ sessionKey });
    const events = t.core.database.sqlite.prepare('SELECT run_id, input_tokens, output_tokens FROM cost_events').all();
    expect(events).toEqual([{ run_id: run.id, input_tokens: 2000, output_tokens: 300 }]);
    const log = (await readLog(t, run.id)).map((r) => r.data).join('');
    expect(log).toContain('POST /api/issues/');
    expect(log).toContain('"type":"result"');
    expect(log).not.toContain('gw-scripted-token');
    expect(gw.runs[0]!.request).toMatchObject({ runId: run.id, agentId: 'builder', env: { SERVICE_RUN_ID: run.id, SERVICE_AGENT_ID: agent.id } });

    expect((await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { body: { issueId: issue.id } })).status).toBe(202);
    const second = await waitForRun(t, company, agent.id, (r) => r.id !== run.id && !['queued', 'running'].includes(r.status), 30_000);
    expect(second).toMatchObject({ status: 'succeeded', summary: `Resumed ${sessionKey}: nothing left.`, sessionParams: { sessionKey } });
    expect(gw.runs[1]!.request.sessionKey).toBe(sessionKey);
  }, 90_000);

  it('a refused token fails the run with gateway_auth_failed and its hint', async () => {
    gw = await startGatewayServer({ token: 'right', handler: () => undefined });
    t = await startCore();
    const company = await createCompany(t);
    const agent = (await t.api('POST', `/api/companies/${company}/agents`, { body: { name: 'Locked', adapterType: 'vendor_h_gateway', adapterConfig: { url: gw.httpUrl, agentId: 'builder', env: { GATEWAY_TOKEN: 'wrong' } } } })).body;
    await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`);
    const run = await waitForRun(t, company, agent.id, undefined, 30_000);
    expect(run).toMatchObject({ status: 'failed', errorCode: 'gateway_auth_failed', errorHint: expect.stringContaining('GATEWAY_TOKEN') });
    expect(gw.runs).toHaveLength(0);
  }, 60_000);
});
