import { agentCli } from '../../helpers/agent-clis.js';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { readLog, waitForRun } from '../heartbeat/helpers.js';
import { lastToolResult, startOpenAiScriptServer, type OpenAiScriptServer, type ScriptStep } from '../../fixtures/model-servers/openai.js';

const CODEX = agentCli('codex');
const REPLAY = path.resolve(import.meta.dirname, '../../fixtures/cli-replay.mjs');
const FIXTURES = path.resolve(import.meta.dirname, '../../../adapters/vendor-b-local/fixtures');

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

const api = (args: string) => `curl -sS -H "Authorization: Bearer $SERVICE_API_KEY" -H "X-Service-Run-Id: $SERVICE_RUN_ID" -H 'Content-Type: application/json' ${args}`;
const shell = (cmd: string, text?: string): ScriptStep => ({ ...(text ? { text } : {}), calls: [{ name: 'exec_command', arguments: { cmd } }], usage: { input: 200, cached: 500, output: 30 } });
/** Codex wraps a command's output in a header ("Chunk ID…", "Output:"); the command's own text follows it. */
const output = (text: string) => text.slice(text.indexOf('Output:\n') + 'Output:\n'.length).trim();

describe('vendor_b_local: the real Codex CLI against a scripted Responses API', () => {
  it('works a heartbeat with its run token, then resumes the thread on the next one', async () => {
    const seen: string[] = [];
    const step = (next: ScriptStep) => (req: Parameters<Extract<ScriptStep, (...a: never[]) => unknown>>[0]) => {
      seen.push(output(lastToolResult(req)));
      return typeof next === 'function' ? next(req) : next;
    };
    server = await startOpenAiScriptServer([
      shell(api('"$SERVICE_API_URL/api/agents/me"'), 'Checking who I am.'),
      step(shell(api(`-X POST "$SERVICE_API_URL/api/issues/$SERVICE_TASK_ID/checkout" -d '{"expectedStatuses":["todo"]}'`))),
      step(shell(api(`-X POST "$SERVICE_API_URL/api/issues/$SERVICE_TASK_ID/comments" -d '{"body":"Working on it from Codex."}'`))),
      step(shell(api(`-X PATCH "$SERVICE_API_URL/api/issues/$SERVICE_TASK_ID" -d '{"status":"done","comment":"Done by the scripted model."}'`))),
      step({ text: 'Finished the task.', usage: { input: 100, cached: 800, output: 10 } }),
    ]);
    const home = tempDir('hc-codex-home-');
    mkdirSync(path.join(home, '.codex'));
    const work = tempDir('hc-codex-work-');
    t = await startCore();
    const company = await createCompany(t);
    const secret = await t.api('POST', `/api/companies/${company}/secrets`, { body: { name: 'openai-key', value: 'sk-openai-scripted-test' } });
    expect(secret.status).toBe(201);
    const provider = `{ name = "scripted", base_url = "${server.url}", env_key = "OPENAI_API_KEY", wire_api = "responses", request_max_retries = 0, stream_max_retries = 0 }`;
    const created = await t.api('POST', `/api/companies/${company}/agents`, {
      body: {
        name: 'Codie',
        role: 'engineer',
        adapterType: 'vendor_b_local',
        adapterConfig: {
          command: CODEX,
          cwd: work,
          model: 'gpt-5',
          timeoutSec: 120,
          configOverrides: ['model_provider="scripted"', `model_providers.scripted=${provider}`],
          env: { HOME: home, CODEX_HOME: path.join(home, '.codex'), OPENAI_API_KEY: { type: 'secret_ref', secretId: secret.body.id, version: 'latest' } },
        },
      },
    });
    expect(created.status).toBe(201);
    const agent = created.body;
    const issue = (await t.api('POST', `/api/companies/${company}/issues`, { body: { title: 'Ship the adapter', status: 'todo', assigneeAgentId: agent.id } })).body;

    const run = await waitForRun(t, company, agent.id, undefined, 90_000);
    expect(run).toMatchObject({ status: 'succeeded', adapterType: 'vendor_b_local', taskIssueId: issue.id, summary: 'Finished the task.', costStatus: 'priced' });
    expect(JSON.parse(seen[0]!)).toMatchObject({ id: agent.id, name: 'Codie' });
    expect(JSON.parse(seen[1]!)).toMatchObject({ status: 'in_progress' });
    expect((await t.api('GET', `/api/issues/${issue.id}`)).body.status).toBe('done');
    const comments = (await t.api('GET', `/api/issues/${issue.id}/comments`)).body;
    expect((comments.items ?? comments).map((c: any) => c.body)).toEqual(expect.arrayContaining(['Working on it from Codex.', 'Done by the scripted model.']));
    // Five scripted turns: 4 × (200 + 500 cached, 30 out) + (100 + 800 cached, 10 out).
    expect(run.usage).toMatchObject({ provider: 'openai', model: 'gpt-5', inputTokens: 900, cachedInputTokens: 2800, outputTokens: 130 });
    expect(run.costCents).toBeCloseTo((900 * 1.25 + 2800 * 0.125 + 130 * 10) / 1e4, 6);
    const threadId = run.sessionParams.threadId as string;
    expect(threadId).toMatch(/^[0-9a-f-]{36}$/);
    expect(run.sessionParams).toMatchObject({ cwd: work, totals: { input: 3700, cached: 2800, output: 130 } });
    const log = (await readLog(t, run.id)).map((r) => r.data).join('');
    expect(log).toContain(`"thread_id":"${threadId}"`);
    expect(log).toContain('"type":"turn.completed"');
    expect(log).not.toContain('sk-openai-scripted-test');
    const firstLoop = server.requests.find((r) => r.scripted)!;
    expect(firstLoop.headers.authorization).toBe('Bearer sk-openai-scripted-test');
    expect(JSON.stringify(firstLoop.body.input)).toContain('headcount-heartbeat/SKILL.md');

    // The next heartbeat resumes the thread; only its own tokens are recorded.
    server.push({ text: 'Nothing left to do.', usage: { input: 50, cached: 3000, output: 5 } });
    expect((await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { body: { issueId: issue.id } })).status).toBe(202);
    const second = await waitForRun(t, company, agent.id, (r) => r.id !== run.id && !['queued', 'running'].includes(r.status), 90_000);
    expect(second).toMatchObject({ status: 'succeeded', summary: 'Nothing left to do.', sessionParams: { threadId }, usage: { inputTokens: 50, cachedInputTokens: 3000, outputTokens: 5 } });
    expect(second.command).toContain(`resume ${threadId}`);
    const resumed = server.requests.filter((r) => r.scripted).at(-1)!;
    expect(JSON.stringify(resumed.body.input)).toContain('Finished the task.');
  }, 180_000);
});

describe('vendor_b_local through the heartbeat engine with the replay shim', () => {
  it('an unknown stored thread is cleared and the run retried once with a fresh one', async () => {
    const dir = tempDir('hc-codex-replay-');
    const record = path.join(dir, 'calls.jsonl');
    t = await startCore();
    const company = await createCompany(t);
    const agent = (
      await t.api('POST', `/api/companies/${company}/agents`, {
        body: {
          name: 'Replay',
          adapterType: 'vendor_b_local',
          adapterConfig: {
            command: REPLAY,
            cwd: dir,
            timeoutSec: 30,
            env: {
              // Under the PTY stderr and stdout are one stream: the second call prints Codex's stderr.
              CLI_REPLAY_SEQUENCE: ['success-tool-use.jsonl', 'unknown-session.stderr.txt', 'success-tool-use.jsonl'].map((f) => path.join(FIXTURES, f)).join(path.delimiter),
              CLI_REPLAY_STATE: path.join(dir, 'state'),
              CLI_REPLAY_EXIT: `0${path.delimiter}1${path.delimiter}0`,
              CLI_REPLAY_RECORD: record,
              CLI_REPLAY_WAIT_STDIN: '0',
            },
          },
        },
      })
    ).body;
    await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`);
    const first = await waitForRun(t, company, agent.id);
    expect(first.sessionParams).toMatchObject({ threadId: '01a203aa-b577-79d0-869e-bc6794cf6728' });
    writeFileSync(path.join(dir, 'state'), '1');
    await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`);
    const second = await waitForRun(t, company, agent.id, (r) => r.id !== first.id && !['queued', 'running'].includes(r.status));
    expect(second).toMatchObject({ status: 'succeeded', errorCode: null });
    const calls = readFileSync(record, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(calls.map((c) => c.argv.includes('resume'))).toEqual([false, true, false]);
    expect(calls[1].env.SERVICE_RUN_ID).toBe(second.id);
    expect(calls[2].env.SERVICE_RUN_ID).toBe(second.id);
  });
});

describe('vendor_b_local environment test through the API', () => {
  it('detects the installed codex and its version; a relative cwd fails', async () => {
    const home = tempDir('hc-codex-env-');
    mkdirSync(path.join(home, '.codex'));
    t = await startCore();
    const company = await createCompany(t);
    const res = await t.api('POST', `/api/companies/${company}/adapters/vendor_b_local/test-environment`, { body: { adapterConfig: { command: CODEX, cwd: home, env: { HOME: home, CODEX_HOME: path.join(home, '.codex') } } } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ adapterType: 'vendor_b_local', status: 'pass' });
    expect(res.body.checks.find((c: any) => c.code === 'cli_detected')).toMatchObject({ level: 'info' });
    expect(res.body.checks.find((c: any) => c.code === 'cli_version').message).toMatch(/codex-cli \d+\.\d+\.\d+/);
    const models = await t.api('GET', `/api/companies/${company}/adapters/vendor_b_local/models`);
    expect(models.status).toBe(200);
    expect(JSON.stringify(models.body)).toContain('gpt-5-codex');
  });
});
