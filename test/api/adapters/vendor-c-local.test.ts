import { agentCli } from '../../helpers/agent-clis.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCompany, type TestCore } from '../../helpers/core.js';
import { lastFunctionResponse, startGeminiScriptServer, type GeminiScriptServer, type ScriptStep } from '../../fixtures/model-servers/gemini.js';
import { HEARTBEAT_COMMANDS, nextRun, runScriptedHeartbeat, startCore, tempDirs, unknownSessionRetry } from './cli-heartbeat.js';

const GEMINI = agentCli('gemini');
let t: TestCore | undefined;
let server: GeminiScriptServer | undefined;
const dirs = tempDirs();
afterEach(async () => {
  await t?.close();
  await server?.close();
  t = undefined;
  server = undefined;
  dirs.clean();
});

describe('vendor_c_local is experimental: agents need the explicit opt-in', () => {
  it('creating or switching an agent to it without enableExperimental is a 400; with it, 201', async () => {
    t = await startCore();
    const company = await createCompany(t);
    const refused = await t.api('POST', `/api/companies/${company}/agents`, { body: { name: 'Gem', adapterType: 'vendor_c_local', adapterConfig: { cwd: '/tmp' } } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'experimental_adapter' });
    expect(refused.body.error).toContain('body.adapterConfig.enableExperimental');
    const alsoRefused = await t.api('POST', `/api/companies/${company}/agents`, { body: { name: 'Gem', adapterType: 'vendor_c_local', adapterConfig: { enableExperimental: false } } });
    expect(alsoRefused.status).toBe(400);
    const other = await t.api('POST', `/api/companies/${company}/agents`, { body: { name: 'Other', adapterType: 'process', adapterConfig: { command: 'true' } } });
    expect(other.status).toBe(201);
    const patched = await t.api('PATCH', `/api/agents/${other.body.id}`, { body: { adapterType: 'vendor_c_local', adapterConfig: {} } });
    expect(patched.status).toBe(400);
    expect(patched.body.code).toBe('experimental_adapter');
    const created = await t.api('POST', `/api/companies/${company}/agents`, { body: { name: 'Gem', adapterType: 'vendor_c_local', adapterConfig: { enableExperimental: true } } });
    expect(created.status).toBe(201);
    expect(created.body.adapterConfig).toMatchObject({ enableExperimental: true, command: 'gemini', approvalMode: 'yolo' });
  });
});

describe('vendor_c_local: the real Gemini CLI against a scripted Gemini API (GOOGLE_GEMINI_BASE_URL)', () => {
  it('works a heartbeat with its run token, then resumes the session on the next one', async () => {
    const seen: string[] = [];
    const [me, checkout, comment, done] = HEARTBEAT_COMMANDS('Gemini CLI');
    const shell = (command: string): ScriptStep => (req) => {
      seen.push(lastFunctionResponse(req));
      return { calls: [{ name: 'run_shell_command', args: { command, description: 'Headcount API' } }], usage: { input: 200, cached: 500, output: 30 } };
    };
    server = await startGeminiScriptServer([
      { text: 'Checking who I am.', calls: [{ name: 'run_shell_command', args: { command: me!, description: 'Who am I' } }], usage: { input: 200, cached: 500, output: 30 } },
      shell(checkout!),
      shell(comment!),
      shell(done!),
      (req) => {
        seen.push(lastFunctionResponse(req));
        return { text: 'Finished the task.', usage: { input: 100, cached: 800, output: 10 } };
      },
    ]);
    const home = dirs.make('hc-gemini-home-');
    mkdirSync(path.join(home, '.gemini'));
    // A base URL makes the CLI infer a "gateway" auth type it then rejects; the settings select the API key.
    writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } }, telemetry: { enabled: false }, privacy: { usageStatisticsEnabled: false }, general: { disableAutoUpdate: true, disableUpdateNag: true } }));
    const work = dirs.make('hc-gemini-work-');
    t = await startCore();
    const { company, agent, issue, run, log } = await runScriptedHeartbeat({
      t,
      adapterType: 'vendor_c_local',
      name: 'Gem',
      cli: 'Gemini CLI',
      keyVar: 'GEMINI_API_KEY',
      seen,
      timeoutMs: 240_000,
      adapterConfig: { enableExperimental: true, command: GEMINI, cwd: work, model: 'gemini-2.5-pro', timeoutSec: 240, env: { HOME: home, GOOGLE_GEMINI_BASE_URL: server.url } },
    });
    // Five scripted turns: 4 × (200 + 500 cached, 30 out) + (100 + 800 cached, 10 out).
    expect(run).toMatchObject({ costStatus: 'priced', usage: { provider: 'google', model: 'gemini-2.5-pro', inputTokens: 900, cachedInputTokens: 2800, outputTokens: 130 } });
    expect(run.costCents).toBeGreaterThan(0);
    const sessionId = run.sessionParams.sessionId as string;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(log).toContain(`"session_id":"${sessionId}"`);
    const firstLoop = server.requests.find((r) => r.scripted)!;
    expect(firstLoop.headers['x-goog-api-key']).toBe('sk-scripted-secret-value');
    expect(JSON.stringify(firstLoop.body.contents)).toContain('headcount-heartbeat/SKILL.md');

    server.push({ text: 'Nothing left to do.', usage: { input: 50, cached: 3000, output: 5 } });
    const second = await nextRun(t, company, agent.id, issue.id, run.id, 240_000);
    expect(second).toMatchObject({ status: 'succeeded', summary: 'Nothing left to do.', sessionParams: { sessionId }, usage: { inputTokens: 50, cachedInputTokens: 3000, outputTokens: 5 } });
    expect(second.command).toContain(`--resume ${sessionId}`);
    const resumed = server.requests.filter((r) => r.scripted).at(-1)!;
    expect(JSON.stringify(resumed.body.contents)).toContain('Finished the task.');
  }, 600_000);
});

describe('vendor_c_local through the heartbeat engine with the replay shim', () => {
  it('an unknown stored session is cleared and the run retried once with a fresh one', async () => {
    t = await startCore();
    await unknownSessionRetry({
      t,
      dir: dirs.make('hc-c-replay-'),
      adapterType: 'vendor_c_local',
      replay: path.resolve(import.meta.dirname, '../../fixtures/cli-replay.mjs'),
      fixtures: path.resolve(import.meta.dirname, '../../../adapters/vendor-c-local/fixtures'),
      success: 'success-tool-use.jsonl',
      unknown: 'unknown-session.stderr.txt',
      config: { enableExperimental: true },
      resumeFlag: '--resume',
    });
  });
});
