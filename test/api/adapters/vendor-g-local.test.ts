import { agentCli } from '../../helpers/agent-clis.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TestCore } from '../../helpers/core.js';
import { lastToolResult, startOpenAiScriptServer, type OpenAiScriptServer, type ScriptStep } from '../../fixtures/model-servers/openai.js';
import { HEARTBEAT_COMMANDS, nextRun, runScriptedHeartbeat, startCore, tempDirs, unknownSessionRetry } from './cli-heartbeat.js';

const QWEN = agentCli('qwen');
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

describe('vendor_g_local: the real Qwen Code CLI against a scripted Chat Completions API', () => {
  it('works a heartbeat with its run token, then resumes the session on the next one', async () => {
    const seen: string[] = [];
    const shell = (command: string): ScriptStep => (req) => {
      if (seen.length || req.body.messages.some((m: any) => m.role === 'tool')) seen.push(lastToolResult(req));
      return { calls: [{ name: 'run_shell_command', arguments: { command, description: 'Headcount API' } }], usage: { input: 200, cached: 500, output: 30 } };
    };
    const [me, checkout, comment, done] = HEARTBEAT_COMMANDS('Qwen Code');
    server = await startOpenAiScriptServer([
      { text: 'Checking who I am.', calls: [{ name: 'run_shell_command', arguments: { command: me, description: 'Who am I' } }], usage: { input: 200, cached: 500, output: 30 } },
      shell(checkout!),
      shell(comment!),
      shell(done!),
      (req) => {
        seen.push(lastToolResult(req));
        return { text: 'Finished the task.', usage: { input: 100, cached: 800, output: 10 } };
      },
    ]);
    const home = dirs.make('hc-qwen-home-');
    mkdirSync(path.join(home, '.qwen'));
    // No telemetry, no update checks, and no retries: an API error fails the run at once.
    writeFileSync(path.join(home, '.qwen', 'settings.json'), JSON.stringify({ telemetry: { enabled: false }, privacy: { usageStatisticsEnabled: false }, general: { disableAutoUpdate: true, disableUpdateNag: true }, model: { generationConfig: { maxRetries: 0 } } }));
    const work = dirs.make('hc-qwen-work-');
    t = await startCore();
    const { company, agent, issue, run, log } = await runScriptedHeartbeat({
      t,
      adapterType: 'vendor_g_local',
      name: 'Quinn',
      cli: 'Qwen Code',
      keyVar: 'OPENAI_API_KEY',
      seen,
      timeoutMs: 240_000,
      adapterConfig: { command: QWEN, cwd: work, model: 'qwen3-coder-plus', authType: 'openai', timeoutSec: 240, env: { HOME: home, OPENAI_BASE_URL: server.url } },
    });
    expect(run.costStatus).toBe('priced');
    expect(run.usage).toMatchObject({ provider: 'qwen', model: 'qwen3-coder-plus', cachedInputTokens: expect.any(Number), outputTokens: expect.any(Number) });
    expect(run.usage.inputTokens).toBeGreaterThanOrEqual(900);
    expect(run.costCents).toBeGreaterThan(0);
    const sessionId = run.sessionParams.sessionId as string;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(log).toContain(`"session_id":"${sessionId}"`);
    expect(log).toContain('"type":"result"');
    const firstLoop = server.requests.find((r) => r.scripted)!;
    expect(firstLoop.headers.authorization).toBe('Bearer sk-scripted-secret-value');
    expect(JSON.stringify(firstLoop.body.messages)).toContain('headcount-heartbeat/SKILL.md');

    server.push({ text: 'Nothing left to do.', usage: { input: 50, cached: 3000, output: 5 } });
    const second = await nextRun(t, company, agent.id, issue.id, run.id, 240_000);
    expect(second).toMatchObject({ status: 'succeeded', summary: 'Nothing left to do.', sessionParams: { sessionId } });
    expect(second.command).toContain(`--resume ${sessionId}`);
    // Only the second heartbeat's own tokens, though Qwen reports the whole session's.
    expect(second.usage.outputTokens).toBeLessThan(run.usage.outputTokens);
    const resumed = server.requests.filter((r) => r.scripted).at(-1)!;
    expect(JSON.stringify(resumed.body.messages)).toContain('Finished the task.');
  }, 600_000);
});

describe('vendor_g_local through the heartbeat engine with the replay shim', () => {
  it('an unknown stored session is cleared and the run retried once with a fresh one', async () => {
    t = await startCore();
    await unknownSessionRetry({
      t,
      dir: dirs.make('hc-g-replay-'),
      adapterType: 'vendor_g_local',
      replay: path.resolve(import.meta.dirname, '../../fixtures/cli-replay.mjs'),
      fixtures: path.resolve(import.meta.dirname, '../../../adapters/vendor-g-local/fixtures'),
      success: 'success-tool-use.jsonl',
      unknown: 'unknown-session.stderr.txt',
      config: {},
      resumeFlag: '--resume',
    });
  });
});
