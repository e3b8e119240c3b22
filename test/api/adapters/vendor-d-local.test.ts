import { agentCli } from '../../helpers/agent-clis.js';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TestCore } from '../../helpers/core.js';
import { lastToolResult, startOpenAiScriptServer, type OpenAiScriptServer, type ScriptStep } from '../../fixtures/model-servers/openai.js';
import { HEARTBEAT_COMMANDS, nextRun, runScriptedHeartbeat, startCore, tempDirs, unknownSessionRetry } from './cli-heartbeat.js';
import { listOpenCodeModels } from '../../../adapters/vendor-d-local/list-models.js';

const OPENCODE = agentCli('opencode');
let t: TestCore | undefined;
let server: OpenAiScriptServer | undefined;
const dirs = tempDirs();
afterEach(async () => {
  await t?.close();
  await server?.close();
  t = undefined;
  server = undefined;
  dirs.clean();
});

/** OpenCode's configuration for a custom OpenAI-compatible provider at the scripted server. */
const providerConfig = (url: string) =>
  JSON.stringify({ autoupdate: false, share: 'disabled', provider: { scripted: { npm: '@ai-sdk/openai-compatible', name: 'Scripted', options: { baseURL: url, apiKey: '{env:SCRIPTED_API_KEY}' }, models: { 'qwen3-coder-plus': { name: 'Qwen3 Coder Plus' } } } } });
const isolated = (home: string) => ({ HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_DATA_HOME: path.join(home, '.local/share'), XDG_CACHE_HOME: path.join(home, '.cache'), XDG_STATE_HOME: path.join(home, '.local/state'), OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_LSP_DOWNLOAD: '1' });

describe('vendor_d_local: the real OpenCode CLI against a scripted OpenAI-compatible provider', () => {
  it('works a heartbeat with its run token, then continues the session on the next one', async () => {
    const seen: string[] = [];
    const [me, checkout, comment, done] = HEARTBEAT_COMMANDS('OpenCode');
    const bash = (command: string): ScriptStep => (req) => {
      seen.push(lastToolResult(req));
      return { calls: [{ name: 'bash', arguments: { command, description: 'Headcount API' } }], usage: { input: 200, cached: 500, output: 30 } };
    };
    server = await startOpenAiScriptServer([
      { text: 'Checking who I am.', calls: [{ name: 'bash', arguments: { command: me!, description: 'Who am I' } }], usage: { input: 200, cached: 500, output: 30 } },
      bash(checkout!),
      bash(comment!),
      bash(done!),
      (req) => {
        seen.push(lastToolResult(req));
        return { text: 'Finished the task.', usage: { input: 100, cached: 800, output: 10 } };
      },
    ]);
    const home = dirs.make('hc-opencode-home-');
    const work = dirs.make('hc-opencode-work-');
    t = await startCore();
    const { company, agent, issue, run, log } = await runScriptedHeartbeat({
      t,
      adapterType: 'vendor_d_local',
      name: 'Otto',
      cli: 'OpenCode',
      keyVar: 'SCRIPTED_API_KEY',
      seen,
      timeoutMs: 240_000,
      adapterConfig: { command: OPENCODE, cwd: work, model: 'scripted/qwen3-coder-plus', timeoutSec: 240, env: { ...isolated(home), OPENCODE_CONFIG_CONTENT: providerConfig(server.url) } },
    });
    expect(run).toMatchObject({ costStatus: 'priced', usage: { provider: 'scripted', model: 'scripted/qwen3-coder-plus', inputTokens: 900, cachedInputTokens: 2800, outputTokens: 130 } });
    const sessionId = run.sessionParams.sessionId as string;
    expect(sessionId).toMatch(/^ses_/);
    expect(log).toContain(`"sessionID":"${sessionId}"`);
    const firstLoop = server.requests.find((r) => r.scripted)!;
    expect(firstLoop.headers.authorization).toBe('Bearer sk-scripted-secret-value');
    expect(JSON.stringify(firstLoop.body.messages)).toContain('headcount-heartbeat/SKILL.md');

    server.push({ text: 'Nothing left to do.', usage: { input: 50, cached: 3000, output: 5 } });
    const second = await nextRun(t, company, agent.id, issue.id, run.id, 240_000);
    expect(second).toMatchObject({ status: 'succeeded', summary: 'Nothing left to do.', sessionParams: { sessionId }, usage: { inputTokens: 50, cachedInputTokens: 3000, outputTokens: 5 } });
    expect(second.command).toContain(`--session ${sessionId}`);
    const resumed = server.requests.filter((r) => r.scripted).at(-1)!;
    expect(JSON.stringify(resumed.body.messages)).toContain('Finished the task.');

    // Models come from the real `opencode models`: its configured providers, provider/model.
    const models = await listOpenCodeModels({ command: OPENCODE, env: { ...isolated(home), OPENCODE_CONFIG_CONTENT: providerConfig(server.url) } });
    expect(models.map((m) => m.id)).toContain('scripted/qwen3-coder-plus');
    const route = await t.api('GET', `/api/companies/${company}/adapters/vendor_d_local/models`);
    expect(route.status).toBe(200);
  }, 600_000);
});

describe('vendor_d_local through the heartbeat engine with the replay shim', () => {
  it('an unknown stored session is cleared and the run retried once with a fresh one', async () => {
    t = await startCore();
    await unknownSessionRetry({
      t,
      dir: dirs.make('hc-d-replay-'),
      adapterType: 'vendor_d_local',
      replay: path.resolve(import.meta.dirname, '../../fixtures/cli-replay.mjs'),
      fixtures: path.resolve(import.meta.dirname, '../../../adapters/vendor-d-local/fixtures'),
      success: 'success-tool-use.jsonl',
      unknown: 'unknown-session.stderr.txt',
      config: { model: 'scripted/qwen3-coder-plus' },
      resumeFlag: '--session',
    });
  });
});
