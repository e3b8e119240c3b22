import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { waitForRun } from '../heartbeat/helpers.js';

const REPLAY = path.resolve(import.meta.dirname, '../../fixtures/cli-replay.mjs');
const FIXTURES = path.resolve(import.meta.dirname, '../../../adapters/vendor-e/fixtures');
const CHAT = '7c1f4e2a-93b5-4d0e-8a61-2f5b9c3d7e10';

let t: TestCore | undefined;
const temps: string[] = [];
afterEach(async () => {
  await t?.close();
  t = undefined;
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function replayAgent(company: string, dir: string, files: string[], exits: number[]) {
  return (
    await t!.api('POST', `/api/companies/${company}/agents`, {
      body: {
        name: 'Cora',
        adapterType: 'vendor_e',
        adapterConfig: {
          command: REPLAY,
          cwd: dir,
          model: 'sonnet-4.5',
          timeoutSec: 30,
          env: {
            // Under a PTY the CLI's stderr and stdout are one stream: a stderr capture replays as stdout.
            CLI_REPLAY_SEQUENCE: files.map((f) => path.join(FIXTURES, f)).join(path.delimiter),
            CLI_REPLAY_STATE: path.join(dir, 'state'),
            CLI_REPLAY_EXIT: exits.join(path.delimiter),
            CLI_REPLAY_RECORD: path.join(dir, 'calls.jsonl'),
            CLI_REPLAY_WAIT_STDIN: '0',
            CLI_REPLAY_DELAY_MS: '1',
          },
        },
      },
    })
  ).body;
}

describe('vendor_e (Cursor stream-json replayed) through the heartbeat engine', () => {
  it('records usage, priced cost and chat id; an unknown chat is cleared and the run retried once', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hc-cursor-api-'));
    temps.push(dir);
    t = await startCore();
    const company = await createCompany(t);
    const agent = await replayAgent(company, dir, ['success-tool-use.jsonl', 'unknown-session.stderr.txt', 'resume.jsonl'], [0, 1, 0]);
    await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`);
    const first = await waitForRun(t, company, agent.id, undefined, 60_000);
    expect(first).toMatchObject({ status: 'succeeded', costStatus: 'priced', sessionParams: { chatId: CHAT, cwd: dir }, usage: { provider: 'cursor', model: 'claude-sonnet-4-5', inputTokens: 13112, outputTokens: 128 } });
    expect(first.costCents).toBeGreaterThan(0);
    await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`);
    const second = await waitForRun(t, company, agent.id, (r) => r.id !== first.id && !['queued', 'running'].includes(r.status), 60_000);
    expect(second).toMatchObject({ status: 'succeeded', errorCode: null, summary: 'Nothing left to do on ACME-1.' });
    const calls = readFileSync(path.join(dir, 'calls.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(calls.map((c) => c.argv.includes('--resume'))).toEqual([false, true, false]);
    expect(calls.slice(1).map((c) => c.env.SERVICE_RUN_ID)).toEqual([second.id, second.id]);
  }, 120_000);

  it('a usage limit fails the run as rate_limited with its reset time', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hc-cursor-api-'));
    temps.push(dir);
    t = await startCore();
    const company = await createCompany(t);
    const agent = await replayAgent(company, dir, ['rate-limit.stderr.txt'], [1]);
    await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`);
    const run = await waitForRun(t, company, agent.id, undefined, 60_000);
    expect(run).toMatchObject({ status: 'failed', errorCode: 'rate_limited', rateLimitResetAt: '2026-11-23T00:00:00.000Z' });
  }, 60_000);
});
