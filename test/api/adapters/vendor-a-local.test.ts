import { agentCli } from '../../helpers/agent-clis.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { readLog, waitForRun } from '../heartbeat/helpers.js';
import { scanForLeaks } from '../secrets/helpers.js';
import { lastToolResult, startAnthropicScriptServer, type AnthropicScriptServer, type ScriptTurn } from '../../fixtures/model-servers/anthropic.js';

const CLAUDE = agentCli('claude');
const REPLAY = path.resolve(import.meta.dirname, '../../fixtures/cli-replay.mjs');
const FIXTURES = path.resolve(import.meta.dirname, '../../../adapters/vendor-a-local/fixtures');

let t: TestCore | undefined;
let server: AnthropicScriptServer | undefined;
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

/** One Bash tool call the way the heartbeat skill teaches it: run token and run header. */
const api = (args: string) => `curl -sS -H "Authorization: Bearer $SERVICE_API_KEY" -H "X-Service-Run-Id: $SERVICE_RUN_ID" -H 'Content-Type: application/json' ${args}`;
const bash = (command: string, text?: string): ScriptTurn => ({
  blocks: [...(text ? [{ type: 'text' as const, text }] : []), { type: 'tool_use', name: 'Bash', input: { command, description: 'Headcount API' } }],
  usage: { input: 200, output: 30, cacheRead: 500 },
});

describe('vendor_a_local: the real Claude Code CLI against a scripted Messages API', () => {
  it('works a heartbeat with its run token, then resumes the session on the next one', async () => {
    const seen: string[] = [];
    server = await startAnthropicScriptServer([
      bash(api('"$SERVICE_API_URL/api/agents/me"'), 'Checking who I am.'),
      (req) => {
        seen.push(lastToolResult(req));
        return bash(api(`-X POST "$SERVICE_API_URL/api/issues/$SERVICE_TASK_ID/checkout" -d '{"expectedStatuses":["todo"]}'`));
      },
      (req) => {
        seen.push(lastToolResult(req));
        return bash(api(`-X POST "$SERVICE_API_URL/api/issues/$SERVICE_TASK_ID/comments" -d '{"body":"Working on it from Claude Code."}'`));
      },
      (req) => {
        seen.push(lastToolResult(req));
        return bash(api(`-X PATCH "$SERVICE_API_URL/api/issues/$SERVICE_TASK_ID" -d '{"status":"done","comment":"Done by the scripted model."}'`));
      },
      (req) => {
        seen.push(lastToolResult(req));
        return { blocks: [{ type: 'text', text: 'Finished the task.' }], usage: { input: 100, output: 10, cacheRead: 800 } };
      },
    ]);
    const home = tempDir('hc-claude-home-');
    const work = tempDir('hc-claude-work-');
    t = await startCore();
    const company = await createCompany(t);
    // The API key is a secret: resolved into the CLI's env at run time, redacted from transcripts.
    const secret = await t.api('POST', `/api/companies/${company}/secrets`, { body: { name: 'anthropic-key', value: 'sk-ant-scripted-test' } });
    expect(secret.status).toBe(201);
    const created = await t.api('POST', `/api/companies/${company}/agents`, {
      body: {
        name: 'Claudia',
        role: 'engineer',
        adapterType: 'vendor_a_local',
        adapterConfig: {
          command: CLAUDE,
          cwd: work,
          allowedTools: ['Bash'],
          timeoutSec: 120,
          env: {
            HOME: home,
            CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
            ANTHROPIC_BASE_URL: server.url,
            ANTHROPIC_API_KEY: { type: 'secret_ref', secretId: secret.body.id, version: 'latest' },
            DISABLE_TELEMETRY: '1',
            DISABLE_ERROR_REPORTING: '1',
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
            CLAUDE_CODE_MAX_RETRIES: '0',
          },
        },
      },
    });
    expect(created.status).toBe(201);
    const agent = created.body;
    const issue = (await t.api('POST', `/api/companies/${company}/issues`, { body: { title: 'Ship the adapter', status: 'todo', assigneeAgentId: agent.id } })).body;

    const run = await waitForRun(t, company, agent.id, undefined, 90_000);
    expect(run).toMatchObject({ status: 'succeeded', adapterType: 'vendor_a_local', taskIssueId: issue.id, summary: 'Finished the task.', costStatus: 'reported' });
    // The agent really called the API with its run token: who am I, checkout, comment, done.
    expect(JSON.parse(seen[0]!)).toMatchObject({ id: agent.id, name: 'Claudia' });
    expect(JSON.parse(seen[1]!)).toMatchObject({ status: 'in_progress' });
    const after = (await t.api('GET', `/api/issues/${issue.id}`)).body;
    expect(after.status).toBe('done');
    const comments = (await t.api('GET', `/api/issues/${issue.id}/comments`)).body;
    const bodies = (comments.items ?? comments).map((c: any) => c.body);
    expect(bodies).toEqual(expect.arrayContaining(['Working on it from Claude Code.', 'Done by the scripted model.']));
    // Usage and cost as the CLI reported them: five turns of the script.
    expect(run.usage).toMatchObject({ provider: 'anthropic', inputTokens: 900, outputTokens: 130, cachedInputTokens: 2800 });
    expect(run.costCents).toBeGreaterThan(0);
    const sessionId = run.sessionParams.sessionId as string;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(run.sessionParams.cwd).toBe(work);
    const events = t.core.database.sqlite.prepare('SELECT run_id, input_tokens, output_tokens FROM cost_events').all();
    expect(events).toEqual([{ run_id: run.id, input_tokens: 900, output_tokens: 130 }]);
    // The transcript is the CLI's real stream-json, and no secret or token leaked into it.
    const log = (await readLog(t, run.id)).map((r) => r.data).join('');
    expect(log).toContain(`"session_id":"${sessionId}"`);
    expect(log).toContain('"type":"result"');
    expect(log).not.toContain('sk-ant-scripted-test');
    // Nor is it anywhere in the data home, in any form (database, WAL, transcripts).
    expect(scanForLeaks(t.home, 'sk-ant-scripted-test')).toEqual([]);
    // The model saw the heartbeat skill offered through the per-run directory.
    const firstLoop = server.requests.find((r) => r.scripted)!;
    expect(firstLoop.headers['x-api-key']).toBe('sk-ant-scripted-test');
    expect(JSON.stringify(firstLoop.body)).toContain('headcount-heartbeat');

    // Next heartbeat on the same task resumes the session.
    server.push({ blocks: [{ type: 'text', text: 'Nothing left to do.' }] });
    expect((await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { body: { issueId: issue.id } })).status).toBe(202);
    const second = await waitForRun(t, company, agent.id, (r) => r.id !== run.id && !['queued', 'running'].includes(r.status), 90_000);
    expect(second).toMatchObject({ status: 'succeeded', summary: 'Nothing left to do.', sessionParams: { sessionId } });
    expect(second.command).toContain(`--resume ${sessionId}`);
    // The resumed conversation carries the first heartbeat's messages.
    const resumed = server.requests.filter((r) => r.scripted).at(-1)!;
    expect(resumed.body.messages.length).toBeGreaterThan(5);
  }, 180_000);
});

describe('vendor_a_local through the heartbeat engine with the replay shim', () => {
  it('an unknown stored session is cleared and the run retried once with a fresh one', async () => {
    const dir = tempDir('hc-claude-replay-');
    const record = path.join(dir, 'calls.jsonl');
    t = await startCore();
    const company = await createCompany(t);
    const agent = (
      await t.api('POST', `/api/companies/${company}/agents`, {
        body: {
          name: 'Replay',
          adapterType: 'vendor_a_local',
          adapterConfig: {
            command: REPLAY,
            cwd: dir,
            timeoutSec: 30,
            env: {
              CLI_REPLAY_SEQUENCE: ['success-tool-use.jsonl', 'unknown-session.jsonl', 'resume.jsonl'].map((f) => path.join(FIXTURES, f)).join(path.delimiter),
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
    const first = await waitForRun(t, company, agent.id, undefined, 60_000);
    const firstLog = (await readLog(t, first.id)).map((r) => JSON.stringify(r.data)).join('\n');
    expect(first.sessionParams, `${JSON.stringify(first)}\n${firstLog}`).toMatchObject({ sessionId: 'acd5810d-9a38-4668-9825-a7cea6a8f42d' });
    // The CLI lost that session: its next call answers "No conversation found" (second file of the sequence).
    await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`);
    const second = await waitForRun(t, company, agent.id, (r) => r.id !== first.id && !['queued', 'running'].includes(r.status), 60_000);
    const calls = readFileSync(record, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const log = (await readLog(t, second.id)).map((r) => r.data).join('');
    expect(second, `${JSON.stringify(second)}\n${log}\n${JSON.stringify(calls.map((c) => c.argv))}`).toMatchObject({ status: 'succeeded', errorCode: null });
    expect(calls.map((c) => c.argv.includes('--resume'))).toEqual([false, true, false]);
    expect(calls[2].env.SERVICE_RUN_ID).toBe(second.id);
    expect(calls[1].env.SERVICE_RUN_ID).toBe(second.id);
  }, 150_000);
});
