import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { createSecret, ref } from './helpers.js';
import { createFakeAgent, eventually, waitForRunId } from '../heartbeat/helpers.js';

/**
 * Secrets stay with whom the board gave them to: an agent resolves only what its own saved
 * configuration references, and sees colleagues' configurations without values or secret ids.
 */
let t: TestCore;
let company: string;
let ownSecret: any;
let colleagueSecret: any;
let ceo: any;
let engineer: any;
let engineerKey: string;
const OWN_VALUE = 'own-value-7f3a9c1e5b';
const COLLEAGUE_VALUE = 'colleague-value-2d8e4b6a0c';
const TYPED_TOKEN = 'typed-token-9a8b7c6d5e';

beforeEach(async () => {
  t = await startCore();
  company = await createCompany(t);
  ownSecret = await createSecret(t, company, 'ENGINEER_KEY', OWN_VALUE);
  colleagueSecret = await createSecret(t, company, 'CEO_KEY', COLLEAGUE_VALUE);
  ceo = await createAgent(t, company, { name: 'Ada', adapterConfig: { command: 'echo', env: { CEO_KEY: ref(colleagueSecret.id), TYPED: TYPED_TOKEN } } });
  engineer = await createAgent(t, company, { name: 'Grace', reportsTo: ceo.id, adapterConfig: { command: 'echo', env: { MY_KEY: ref(ownSecret.id) } } });
  engineerKey = await createAgentKey(t, engineer.id);
});
afterEach(async () => {
  await t.close();
});

const testEnv = (type: string, adapterConfig: unknown, token?: string) =>
  t.api('POST', `/api/companies/${company}/adapters/${type}/test-environment`, { body: { adapterConfig }, ...(token ? { token } : {}) });
const hire = (body: Record<string, unknown>, token?: string) =>
  t.api('POST', `/api/companies/${company}/agent-hires`, {
    body: { name: 'Newbie', role: 'engineer', reportsTo: ceo.id, capabilities: 'tests', budgetMonthlyCents: 0, ...body },
    ...(token ? { token } : {}),
  });
const drafts = () => (t.core.database.sqlite.prepare("SELECT count(*) AS n FROM agents WHERE status = 'draft'").get() as { n: number }).n;

/** A CLI stand-in whose `--version` prints a variable of its environment, as a leaky probe would. */
function versionPrinter(variable: string): string {
  const file = path.join(t.home, `print-${variable}.sh`);
  writeFileSync(file, `#!/bin/sh\necho "v1.0 $${variable}"\n`);
  chmodSync(file, 0o755);
  return file;
}

describe('an agent resolves only the secrets the board put into its own configuration', () => {
  it('test-environment: a colleague\'s secret is 403 secret_not_granted, its own is allowed and never shown', async () => {
    const denied = await testEnv('process', { command: 'sh', env: { STOLEN: ref(colleagueSecret.id) } }, engineerKey);
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'secret_not_granted', details: { problems: [{ path: 'body.adapterConfig.env.STOLEN' }] } });
    expect(denied.text).not.toContain(COLLEAGUE_VALUE);
    // A pinned version is another grant than `latest`: version 1 may be a value since rotated away.
    expect((await testEnv('process', { command: 'sh', env: { OLD: ref(ownSecret.id, 1) } }, engineerKey)).body.code).toBe('secret_not_granted');
    // Its own secret, printed by the probe: the check message is redacted like a transcript.
    const own = await testEnv('vendor_a_local', { command: versionPrinter('MY_KEY'), cwd: t.home, env: { MY_KEY: ref(ownSecret.id) } }, engineerKey);
    expect(own.status).toBe(200);
    expect(own.text).not.toContain(OWN_VALUE);
    // The board may test with any secret of the company, and is shown no value either.
    const board = await testEnv('vendor_a_local', { command: versionPrinter('CEO_KEY'), cwd: t.home, env: { CEO_KEY: ref(colleagueSecret.id) } });
    expect(board.status).toBe(200);
    expect(board.text).not.toContain(COLLEAGUE_VALUE);
  });

  it('a run token is held to the same rule as an agent key', async () => {
    // Written into the agent's own working directory: the data home is hidden from a sandboxed agent.
    const work = mkdtempSync(path.join(os.tmpdir(), 'hc-grants-'));
    const tokenFile = path.join(work, 'token.txt');
    const runner = await createFakeAgent(t, company, 'Runner', { FAKE_MODE: 'token', FAKE_TOKEN_FILE: tokenFile, FAKE_SLEEP_MS: '3000', MY_KEY: ref(ownSecret.id) }, { cwd: work });
    await t.api('POST', `/api/agents/${runner.id}/heartbeat/invoke`, { body: {} });
    const run = await eventually(async () => (await t.api('GET', `/api/companies/${company}/heartbeat-runs?agentId=${runner.id}`)).body.items[0], 5000, 'the run');
    const token = await eventually(() => (existsSync(tokenFile) && readFileSync(tokenFile, 'utf8')) || undefined, 5000, 'the run token');
    const headers = { 'x-service-run-id': run.id };
    const denied = await t.api('POST', `/api/companies/${company}/adapters/process/test-environment`, { body: { adapterConfig: { command: 'sh', env: { K: ref(colleagueSecret.id) } } }, token, headers });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('secret_not_granted');
    const granted = await t.api('POST', `/api/companies/${company}/adapters/process/test-environment`, { body: { adapterConfig: { command: 'sh', env: { K: ref(ownSecret.id) } } }, token, headers });
    expect(granted.status).toBe(200);
    await waitForRunId(t, run.id);
  });

  it('hire requests: an agent may pass on only its own secrets; the board any', async () => {
    const before = drafts();
    const denied = await hire({ adapterType: 'process', adapterConfig: { command: 'echo', env: { K: ref(colleagueSecret.id) } } }, engineerKey);
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('secret_not_granted');
    expect(drafts()).toBe(before);
    const own = await hire({ adapterType: 'process', adapterConfig: { command: 'echo', env: { K: ref(ownSecret.id) } } }, engineerKey);
    expect(own.status).toBe(201);
    const board = await hire({ name: 'Boarded', adapterType: 'process', adapterConfig: { command: 'echo', env: { K: ref(colleagueSecret.id) } } });
    expect(board.status).toBe(201);
  });

  it('hire resubmissions follow the same rule', async () => {
    const { approval } = (await hire({ adapterType: 'process', adapterConfig: { command: 'echo' } }, engineerKey)).body;
    expect((await t.api('POST', `/api/approvals/${approval.id}/request-revision`, { body: {} })).status).toBe(200);
    const payload = { ...approval.payload, adapterConfig: { command: 'echo', env: { K: ref(colleagueSecret.id) } } };
    const denied = await t.api('POST', `/api/approvals/${approval.id}/resubmit`, { body: { payload }, token: engineerKey });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('secret_not_granted');
    const draft = (await t.api('GET', `/api/agents/${approval.hireAgentId}`)).body;
    expect(draft.adapterConfig.env).toBeUndefined();
    const ok = await t.api('POST', `/api/approvals/${approval.id}/resubmit`, { body: { payload: { ...payload, adapterConfig: { command: 'echo', env: { K: ref(ownSecret.id) } } } }, token: engineerKey });
    expect(ok.status).toBe(200);
    // Without adapter fields a resubmission keeps the draft's configuration as it is.
    expect((await t.api('POST', `/api/approvals/${approval.id}/request-revision`, { body: {} })).status).toBe(200);
    const { adapterType: _t, adapterConfig: _c, ...bare } = payload;
    expect((await t.api('POST', `/api/approvals/${approval.id}/resubmit`, { body: { payload: { ...bare, capabilities: 'more' } }, token: engineerKey })).status).toBe(200);
    expect((await t.api('GET', `/api/agents/${approval.hireAgentId}`)).body).toMatchObject({ capabilities: 'more', adapterConfig: { env: { K: ref(ownSecret.id) } } });
  });

  it('an agent cannot put a secret into any configuration itself', async () => {
    const patch = await t.api('PATCH', `/api/agents/${engineer.id}`, { body: { adapterConfig: { command: 'echo', env: { K: ref(colleagueSecret.id) } } }, token: engineerKey });
    expect(patch.status).toBe(403);
    const create = await t.api('POST', `/api/companies/${company}/agents`, { body: { name: 'Sneaky', adapterType: 'process', adapterConfig: { command: 'echo', env: { K: ref(colleagueSecret.id) } } }, token: engineerKey });
    expect(create.status).toBe(403);
  });
});

describe("a colleague's configuration is seen without values or secret ids", () => {
  const leaks = (text: string) => [COLLEAGUE_VALUE, TYPED_TOKEN, colleagueSecret.id].filter((s) => text.includes(s));

  it('through the agent routes, config revisions and hire approvals; the board and the agent itself see it whole', async () => {
    const { approval } = (await hire({ adapterType: 'process', adapterConfig: { command: 'echo', env: { K: ref(colleagueSecret.id), PLAIN: TYPED_TOKEN } } })).body;
    const seenByColleague = [
      await t.api('GET', `/api/agents/${ceo.id}`, { token: engineerKey }),
      await t.api('GET', `/api/companies/${company}/agents`, { token: engineerKey }),
      await t.api('GET', `/api/agents/${ceo.id}/config-revisions`, { token: engineerKey }),
      await t.api('GET', `/api/companies/${company}/org`, { token: engineerKey }),
      await t.api('GET', `/api/approvals/${approval.id}`, { token: engineerKey }),
      await t.api('GET', `/api/companies/${company}/approvals`, { token: engineerKey }),
      await t.api('GET', `/api/agents/${approval.hireAgentId}`, { token: engineerKey }),
    ];
    for (const res of seenByColleague) {
      expect(res.status).toBe(200);
      expect(leaks(res.text)).toEqual([]);
    }
    // Names stay visible, so the agent knows what its colleague runs with.
    expect(seenByColleague[0]!.body.adapterConfig.env).toEqual({ CEO_KEY: { type: 'secret', name: 'CEO_KEY' }, TYPED: { type: 'hidden' } });
    expect(seenByColleague[2]!.body[0].adapterConfig.env).toEqual({ CEO_KEY: { type: 'secret', name: 'CEO_KEY' }, TYPED: { type: 'hidden' } });
    expect(seenByColleague[4]!.body.payload.adapterConfig.env).toEqual({ K: { type: 'secret', name: 'CEO_KEY' }, PLAIN: { type: 'hidden' } });
    // Its own configuration, and the board's view of everything, are whole.
    const self = await t.api('GET', `/api/agents/me`, { token: engineerKey });
    expect(self.body.adapterConfig.env).toEqual({ MY_KEY: ref(ownSecret.id) });
    const own = (await t.api('GET', `/api/companies/${company}/agents`, { token: engineerKey })).body.find((a: any) => a.id === engineer.id);
    expect(own.adapterConfig.env).toEqual({ MY_KEY: ref(ownSecret.id) });
    const board = await t.api('GET', `/api/agents/${ceo.id}`);
    expect(board.body.adapterConfig.env).toEqual({ CEO_KEY: ref(colleagueSecret.id), TYPED: TYPED_TOKEN });
    expect((await t.api('GET', `/api/approvals/${approval.id}`)).body.payload.adapterConfig.env).toEqual({ K: ref(colleagueSecret.id), PLAIN: TYPED_TOKEN });
  });
});

describe('the agent list shows each agent as its own GET does', () => {
  // The list is written by SQLite as JSON with the viewer's configuration, spend and chain appended
  // (agents/present.ts); one agent's GET is built in JavaScript. Each viewer must see the same.
  it('for the board, the agent itself and a colleague, with a chain of command and spend', async () => {
    const intern = await createAgent(t, company, { name: 'Linus', reportsTo: engineer.id, adapterConfig: { command: 'echo', args: ['a "quoted" ☃'], env: { PLAIN: TYPED_TOKEN } } });
    const internKey = await createAgentKey(t, intern.id);
    const cost = await t.api('POST', `/api/companies/${company}/cost-events`, { body: { agentId: engineer.id, provider: 'anthropic', model: 'm', inputTokens: 10, outputTokens: 2, costCents: 1.234567 } });
    expect(cost.status).toBe(201);
    for (const token of [undefined, engineerKey, internKey]) {
      const list = await t.api('GET', `/api/companies/${company}/agents`, { token });
      expect(list.status).toBe(200);
      expect(list.body.map((a: any) => a.name)).toEqual(['Ada', 'Grace', 'Linus']);
      for (const listed of list.body) expect(listed).toStrictEqual((await t.api('GET', `/api/agents/${listed.id}`, { token })).body);
    }
    const board = (await t.api('GET', `/api/companies/${company}/agents`)).body;
    expect(board[1].spentMonthlyCents).toBe(1.234567);
    expect(board[2].chainOfCommand.map((c: any) => c.name)).toEqual(['Grace', 'Ada']);
  });
});

describe('a hire request needs only the spec\'s fields', () => {
  it('runs like its manager, without the manager\'s env or secrets', async () => {
    const res = await hire({ name: 'Copy' }, engineerKey);
    expect(res.status).toBe(201);
    expect(res.body.agent).toMatchObject({ adapterType: 'process', adapterConfig: { command: 'echo' } });
    expect(res.body.agent.adapterConfig.env).toBeUndefined();
    expect(res.body.approval.payload).toMatchObject({ adapterType: 'process', adapterConfig: { command: 'echo' } });
    // A configuration sent without a type applies to the manager's type.
    const configured = await hire({ name: 'Configured', adapterConfig: { command: 'my-cli', env: { K: ref(ownSecret.id) } } }, engineerKey);
    expect(configured.status).toBe(201);
    expect(configured.body.approval.payload).toMatchObject({ adapterType: 'process', adapterConfig: { command: 'my-cli' } });
  });

  it('without a manager: the requesting agent\'s adapter, else the company\'s first agent\'s', async () => {
    await t.api('PATCH', `/api/agents/${engineer.id}`, { body: { adapterType: 'vendor_a_local', adapterConfig: { command: 'claude-dev', env: { MY_KEY: ref(ownSecret.id) } } } });
    const byAgent = await hire({ name: 'Top', reportsTo: null }, engineerKey);
    expect(byAgent.status).toBe(201);
    expect(byAgent.body.agent).toMatchObject({ adapterType: 'vendor_a_local', adapterConfig: { command: 'claude-dev' } });
    expect(byAgent.body.agent.adapterConfig.env).toBeUndefined();
    const byBoard = await hire({ name: 'Top2', reportsTo: null });
    expect(byBoard.body.agent).toMatchObject({ adapterType: 'process', adapterConfig: { command: 'echo' } });
  });

  it('in a company without agents: the first adapter that runs without configuration', async () => {
    const empty = await createCompany(t, 'Empty');
    const res = await t.api('POST', `/api/companies/${empty}/agent-hires`, { body: { name: 'First', role: 'ceo', reportsTo: null, capabilities: 'all', budgetMonthlyCents: 0 } });
    expect(res.status).toBe(201);
    expect(res.body.agent.adapterType).toBe('vendor_a_local');
  });
});
