import { agentCli } from '../../helpers/agent-clis.js';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { readLog, waitForRun } from '../heartbeat/helpers.js';
import { lastToolResult, startOpenAiScriptServer, type OpenAiScriptServer, type ScriptStep } from '../../fixtures/model-servers/openai.js';

const PI = agentCli('pi');
const REPLAY = path.resolve(import.meta.dirname, '../../fixtures/cli-replay.mjs');
const FIXTURES = path.resolve(import.meta.dirname, '../../../adapters/vendor-f-local/fixtures');

let t: TestCore | undefined;
let server: OpenAiScriptServer | undefined;
const temps: string[] = [];
afterEach(async () => {
  await t?.close();
  await server?.close();
  t = undefined;
  server = undefined;
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  temps.push(dir);
  return dir;
};

/** One bash tool call the way the heartbeat skill teaches it: run token and run header. */
const api = (args: string) => `curl -sS -H "Authorization: Bearer $SERVICE_API_KEY" -H "X-Service-Run-Id: $SERVICE_RUN_ID" -H 'Content-Type: application/json' ${args}`;
const bash = (command: string, text?: string): ScriptStep => ({ ...(text ? { text } : {}), calls: [{ name: 'bash', arguments: { command } }], usage: { input: 200, output: 30, cached: 500 } });

describe('vendor_f_local: the real pi agent against a scripted OpenAI-compatible server', () => {
  it('works a heartbeat with its run token, then resumes the session on the next one', async () => {
    const seen: string[] = [];
    const after = (next: ScriptStep): ScriptStep => (req) => {
      seen.push(lastToolResult(req));
      return typeof next === 'function' ? next(req) : next;
    };
    server = await startOpenAiScriptServer([
      bash(api('"$SERVICE_API_URL/api/agents/me"'), 'Checking who I am.'),
      after(bash(api(`-X POST "$SERVICE_API_URL/api/issues/$SERVICE_TASK_ID/checkout" -d '{"expectedStatuses":["todo"]}'`))),
      after(bash(api(`-X POST "$SERVICE_API_URL/api/issues/$SERVICE_TASK_ID/comments" -d '{"body":"Working on it from pi."}'`))),
      after(bash(api(`-X PATCH "$SERVICE_API_URL/api/issues/$SERVICE_TASK_ID" -d '{"status":"done","comment":"Done by the scripted model."}'`))),
      after({ text: 'Finished the task.', usage: { input: 100, output: 10, cached: 800 } }),
    ]);
    const home = tempDir('hc-pi-home-');
    const work = tempDir('hc-pi-work-');
    const agentDir = path.join(home, 'agent');
    mkdirSync(agentDir, { recursive: true });
    // The scripted server as a custom provider; the key is read from the env var it names.
    writeFileSync(
      path.join(agentDir, 'models.json'),
      JSON.stringify({ providers: { scripted: { baseUrl: server.url, api: 'openai-completions', apiKey: 'SCRIPTED_API_KEY', models: [{ id: 'gpt-5', cost: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 } }] } } }),
    );
    writeFileSync(path.join(agentDir, 'settings.json'), JSON.stringify({ retry: { enabled: false, provider: { maxRetries: 0 } } }));
    t = await startCore();
    const company = await createCompany(t);
    const secret = await t.api('POST', `/api/companies/${company}/secrets`, { body: { name: 'scripted-key', value: 'sk-pi-scripted-test' } });
    expect(secret.status).toBe(201);
    const adapterEnv = { HOME: home, PI_CODING_AGENT_DIR: agentDir, SCRIPTED_API_KEY: { type: 'secret_ref', secretId: secret.body.id, version: 'latest' } };
    // The environment test with the hello probe: the real pi answers through the scripted server.
    const probe = await t.api('POST', `/api/companies/${company}/adapters/vendor_f_local/test-environment`, { body: { adapterConfig: { command: PI, cwd: work, provider: 'scripted', model: 'gpt-5', helloProbe: true, env: adapterEnv } } });
    expect(probe.body).toMatchObject({ adapterType: 'vendor_f_local', status: 'pass' });
    expect(probe.body.checks.map((c: any) => c.code)).toEqual(['cwd_exists', 'cli_detected', 'cli_version', 'custom_providers', 'hello_probe_ok', expect.stringMatching(/^sandbox_(available|unavailable)$/)]);
    expect(server.requests.filter((r) => r.scripted)).toHaveLength(0);
    const created = await t.api('POST', `/api/companies/${company}/agents`, {
      body: {
        name: 'Pia',
        role: 'engineer',
        adapterType: 'vendor_f_local',
        adapterConfig: {
          command: PI,
          cwd: work,
          provider: 'scripted',
          model: 'gpt-5',
          tools: ['bash'],
          timeoutSec: 120,
          env: adapterEnv,
        },
      },
    });
    expect(created.status).toBe(201);
    const agent = created.body;
    const issue = (await t.api('POST', `/api/companies/${company}/issues`, { body: { title: 'Ship the pi adapter', status: 'todo', assigneeAgentId: agent.id } })).body;

    const run = await waitForRun(t, company, agent.id, undefined, 90_000);
    expect(run).toMatchObject({ status: 'succeeded', adapterType: 'vendor_f_local', taskIssueId: issue.id, summary: 'Finished the task.', costStatus: 'reported' });
    expect(JSON.parse(seen[0]!)).toMatchObject({ id: agent.id, name: 'Pia' });
    expect(JSON.parse(seen[1]!)).toMatchObject({ status: 'in_progress' });
    expect((await t.api('GET', `/api/issues/${issue.id}`)).body.status).toBe('done');
    const comments = (await t.api('GET', `/api/issues/${issue.id}/comments`)).body;
    expect((comments.items ?? comments).map((c: any) => c.body)).toEqual(expect.arrayContaining(['Working on it from pi.', 'Done by the scripted model.']));
    // Five model calls: 4×200+100 uncached in, 4×30+10 out, 4×500+800 cached; priced by pi from models.json.
    expect(run.usage).toMatchObject({ provider: 'scripted', model: 'gpt-5', inputTokens: 900, outputTokens: 130, cachedInputTokens: 2800 });
    expect(run.costCents).toBeCloseTo(((900 * 1.25 + 130 * 10 + 2800 * 0.125) / 1e6) * 100, 6);
    const sessionId = run.sessionParams.sessionId as string;
    expect(run.sessionParams.cwd).toBe(work);
    const events = t.core.database.sqlite.prepare('SELECT run_id, input_tokens, output_tokens FROM cost_events').all();
    expect(events).toEqual([{ run_id: run.id, input_tokens: 900, output_tokens: 130 }]);
    const log = (await readLog(t, run.id)).map((r) => r.data).join('');
    expect(log).toContain(`"type":"session","version":3,"id":"${sessionId}"`);
    expect(log).toContain('"type":"agent_end"');
    expect(log).not.toContain('sk-pi-scripted-test');
    // The key reached the provider; the heartbeat skill reached the model's system prompt.
    const firstLoop = server.requests.find((r) => r.scripted)!;
    expect(firstLoop.headers.authorization).toBe('Bearer sk-pi-scripted-test');
    expect(JSON.stringify(firstLoop.body)).toContain('headcount-heartbeat');

    // The next heartbeat on the same task resumes the session with its history.
    server.push({ text: 'Nothing left to do.' });
    expect((await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { body: { issueId: issue.id } })).status).toBe(202);
    const second = await waitForRun(t, company, agent.id, (r) => r.id !== run.id && !['queued', 'running'].includes(r.status), 90_000);
    expect(second).toMatchObject({ status: 'succeeded', summary: 'Nothing left to do.', sessionParams: { sessionId } });
    expect(second.command).toContain(`--session ${sessionId}`);
    const resumed = server.requests.filter((r) => r.scripted).at(-1)!;
    expect(resumed.body.messages.length).toBeGreaterThan(10);
  }, 200_000);
});

describe('vendor_f_local through the heartbeat engine with the replay shim', () => {
  it('an unknown stored session is cleared and the run retried once; a 401 fails as login_required', async () => {
    const dir = tempDir('hc-pi-replay-');
    const record = path.join(dir, 'calls.jsonl');
    t = await startCore();
    const company = await createCompany(t);
    // Under a PTY pi's stderr arrives on the one terminal stream: the stderr capture replays as output.
    const sequence = ['success-tool-use.jsonl', 'unknown-session.stderr.txt', 'resume.jsonl', 'login-401.jsonl'];
    const agent = (
      await t.api('POST', `/api/companies/${company}/agents`, {
        body: {
          name: 'Replay',
          adapterType: 'vendor_f_local',
          adapterConfig: {
            command: REPLAY,
            cwd: dir,
            timeoutSec: 30,
            env: {
              CLI_REPLAY_SEQUENCE: sequence.map((f) => path.join(FIXTURES, f)).join(path.delimiter),
              CLI_REPLAY_STATE: path.join(dir, 'state'),
              CLI_REPLAY_EXIT: ['0', '1', '0', '0'].join(path.delimiter),
              CLI_REPLAY_RECORD: record,
              CLI_REPLAY_WAIT_STDIN: '0',
              // Paced like a real run: a PTY can lose output written in the instant before exit.
              CLI_REPLAY_DELAY_MS: '1',
            },
          },
        },
      })
    ).body;
    await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`);
    const first = await waitForRun(t, company, agent.id, undefined, 60_000);
    expect(first).toMatchObject({ status: 'succeeded', sessionParams: { sessionId: '01a203ae-af6e-7139-9098-18d514e19d40' }, costStatus: 'reported' });
    await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`);
    const second = await waitForRun(t, company, agent.id, (r) => r.id !== first.id && !['queued', 'running'].includes(r.status), 60_000);
    expect(second).toMatchObject({ status: 'succeeded', errorCode: null });
    const calls = readFileSync(record, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(calls.map((c) => c.argv.includes('--session'))).toEqual([false, true, false]);
    await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`);
    const third = await waitForRun(t, company, agent.id, (r) => ![first.id, second.id].includes(r.id) && !['queued', 'running'].includes(r.status), 60_000);
    expect(third).toMatchObject({ status: 'failed', exitCode: 0, errorCode: 'login_required', errorHint: expect.stringContaining('/login') });
  }, 150_000);
});
