import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { readLog, waitForRun } from '../heartbeat/helpers.js';
import { scanForLeaks } from '../secrets/helpers.js';

/** One shell command the way the heartbeat skill teaches it: run token and run header. */
export const api = (args: string) => `curl -sS -H "Authorization: Bearer $SERVICE_API_KEY" -H "X-Service-Run-Id: $SERVICE_RUN_ID" -H 'Content-Type: application/json' ${args}`;

/** The heartbeat's four API calls, in order. */
export const HEARTBEAT_COMMANDS = (cli: string) => [
  api('"$SERVICE_API_URL/api/agents/me"'),
  api(`-X POST "$SERVICE_API_URL/api/issues/$SERVICE_TASK_ID/checkout" -d '{"expectedStatuses":["todo"]}'`),
  api(`-X POST "$SERVICE_API_URL/api/issues/$SERVICE_TASK_ID/comments" -d '{"body":"Working on it from ${cli}."}'`),
  api(`-X PATCH "$SERVICE_API_URL/api/issues/$SERVICE_TASK_ID" -d '{"status":"done","comment":"Done by the scripted model."}'`),
];

/** The JSON object a tool output carries, whatever the CLI wrapped around it. */
export function jsonIn(raw: string): any {
  // Some CLIs echo the command (with its JSON body) before an "Output:" section.
  const at = raw.indexOf('Output:');
  const text = at >= 0 ? raw.slice(at) : raw;
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  return start >= 0 && end > start ? JSON.parse(text.slice(start, end + 1)) : null;
}

export function tempDirs() {
  const temps: string[] = [];
  return {
    make: (prefix: string) => {
      const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
      temps.push(dir);
      return dir;
    },
    clean: () => temps.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })),
  };
}

/**
 * Creates a company, an agent of `adapterType` with `adapterConfig` (its `env` gets the API key
 * as a secret reference under `keyVar`) and an issue assigned to it; waits for the heartbeat and
 * checks what every real-CLI test checks: the agent called the API with its run token (who am I,
 * checkout, comment, done), the transcript holds the CLI's output and not the secret.
 */
export async function runScriptedHeartbeat(options: { t: TestCore; adapterType: string; name: string; cli: string; keyVar: string; adapterConfig: Record<string, any>; seen: string[]; timeoutMs: number }) {
  const { t } = options;
  const company = await createCompany(t);
  const secret = await t.api('POST', `/api/companies/${company}/secrets`, { body: { name: 'model-key', value: 'sk-scripted-secret-value' } });
  expect(secret.status).toBe(201);
  const adapterConfig = { ...options.adapterConfig, env: { ...options.adapterConfig.env, [options.keyVar]: { type: 'secret_ref', secretId: secret.body.id, version: 'latest' } } };
  const created = await t.api('POST', `/api/companies/${company}/agents`, { body: { name: options.name, role: 'engineer', adapterType: options.adapterType, adapterConfig } });
  expect(created.status).toBe(201);
  const agent = created.body;
  const issue = (await t.api('POST', `/api/companies/${company}/issues`, { body: { title: 'Ship the adapter', status: 'todo', assigneeAgentId: agent.id } })).body;
  const run = await waitForRun(t, company, agent.id, undefined, options.timeoutMs);
  expect(run).toMatchObject({ status: 'succeeded', adapterType: options.adapterType, taskIssueId: issue.id, summary: 'Finished the task.' });
  expect(jsonIn(options.seen[0]!)).toMatchObject({ id: agent.id, name: options.name });
  expect(jsonIn(options.seen[1]!)).toMatchObject({ status: 'in_progress' });
  expect((await t.api('GET', `/api/issues/${issue.id}`)).body.status).toBe('done');
  const comments = (await t.api('GET', `/api/issues/${issue.id}/comments`)).body;
  expect((comments.items ?? comments).map((c: any) => c.body)).toEqual(expect.arrayContaining([`Working on it from ${options.cli}.`, 'Done by the scripted model.']));
  const log = (await readLog(t, run.id)).map((r) => r.data).join('');
  expect(log).not.toContain('sk-scripted-secret-value');
  expect(scanForLeaks(t.home, 'sk-scripted-secret-value')).toEqual([]);
  return { company, agent, issue, run, log };
}

export async function nextRun(t: TestCore, company: string, agentId: string, issueId: string, previousId: string, timeoutMs: number) {
  expect((await t.api('POST', `/api/agents/${agentId}/heartbeat/invoke`, { body: { issueId } })).status).toBe(202);
  return waitForRun(t, company, agentId, (r) => r.id !== previousId && !['queued', 'running'].includes(r.status), timeoutMs);
}

export { startCore };

/**
 * Through the heartbeat engine with the replay shim: a first run stores a session; the next call
 * answers "unknown session" (the CLI's real message, on the PTY's one stream), so the engine
 * clears the session and calls the adapter once more, fresh, in the same run.
 */
export async function unknownSessionRetry(options: { t: TestCore; dir: string; adapterType: string; replay: string; fixtures: string; success: string; unknown: string; config?: Record<string, unknown>; resumeFlag: string }) {
  const { t, dir } = options;
  const record = path.join(dir, 'calls.jsonl');
  const company = await createCompany(t);
  const created = await t.api('POST', `/api/companies/${company}/agents`, {
    body: {
      name: 'Replay',
      adapterType: options.adapterType,
      adapterConfig: {
        ...options.config,
        command: options.replay,
        cwd: dir,
        timeoutSec: 30,
        env: {
          CLI_REPLAY_SEQUENCE: [options.success, options.unknown, options.success].map((f) => path.join(options.fixtures, f)).join(path.delimiter),
          CLI_REPLAY_STATE: path.join(dir, 'state'),
          CLI_REPLAY_EXIT: `0${path.delimiter}1${path.delimiter}0`,
          CLI_REPLAY_RECORD: record,
          CLI_REPLAY_WAIT_STDIN: '0',
        },
      },
    },
  });
  expect(created.status).toBe(201);
  const agent = created.body;
  await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`);
  const first = await waitForRun(t, company, agent.id);
  expect(first.status).toBe('succeeded');
  expect(first.sessionParams.sessionId).toBeTruthy();
  await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`);
  const second = await waitForRun(t, company, agent.id, (r) => r.id !== first.id && !['queued', 'running'].includes(r.status));
  expect(second).toMatchObject({ status: 'succeeded', errorCode: null });
  const { readFileSync } = await import('node:fs');
  const calls = readFileSync(record, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  expect(calls.map((c: any) => c.argv.includes(options.resumeFlag))).toEqual([false, true, false]);
  expect(calls[1].env.SERVICE_RUN_ID).toBe(second.id);
  expect(calls[2].env.SERVICE_RUN_ID).toBe(second.id);
}
