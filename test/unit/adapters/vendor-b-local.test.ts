import { agentCli } from '../../helpers/agent-clis.js';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { splitLines, type ExecutionContext } from '@service/adapter-utils';
import { vendorBLocalAdapter } from '../../../adapters/vendor-b-local/descriptor.js';
import { createServerAdapter } from '../../../adapters/vendor-b-local/index.js';
import { parseStdoutLine } from '../../../adapters/vendor-b-local/ui-parser.js';
import { cliFormatter } from '../../../adapters/vendor-b-local/cli-formatter.js';
import { LOGIN_HINT } from '../../../adapters/vendor-b-local/errors.js';
import { detectModelFromEnv } from '../../../adapters/vendor-b-local/detect-model.js';
import { listCodexModels } from '../../../adapters/vendor-b-local/list-models.js';
import { CODEX_MODELS } from '../../../adapters/vendor-b-local/models.js';
import { createBuiltinRegistry } from '../../../adapters/registry.js';
import { startOpenAiScriptServer } from '../../fixtures/model-servers/openai.js';
import { expectServedParserSelfContained } from './served-ui-parser.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../../adapters/vendor-b-local/fixtures');
const REPLAY = path.resolve(import.meta.dirname, '../../fixtures/cli-replay.mjs');
const CODEX = agentCli('codex');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'hc-vendor-b-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const fixture = (name: string) => path.join(FIXTURES, name);
const THREAD = '01a203aa-b577-79d0-869e-bc6794cf6728';

let n = 0;
async function replay(file: string, options: { pty: boolean; exit?: number; stderr?: string; sessionParams?: Record<string, unknown> | null; config?: Record<string, unknown> }) {
  const record = path.join(tmp, `record-${++n}.jsonl`);
  const env: Record<string, string> = { CLI_REPLAY_FILE: fixture(file), CLI_REPLAY_RECORD: record, CLI_REPLAY_EXIT: String(options.exit ?? 0), CLI_REPLAY_DELAY_MS: '5', CODEX_HOME: path.join(tmp, 'no-codex-home') };
  if (options.pty) env.CLI_REPLAY_WAIT_STDIN = '0';
  if (options.stderr) env.CLI_REPLAY_STDERR_FILE = fixture(options.stderr);
  const meta: Record<string, unknown> = {};
  const ctx: ExecutionContext = {
    config: vendorBLocalAdapter.configSchema.parse({ command: REPLAY, cwd: tmp, pty: options.pty, timeoutSec: 30, model: 'gpt-5', ...options.config }),
    agent: { id: 'agent-1', name: 'Ada', companyId: 'company-1' },
    runtime: {
      apiUrl: 'http://127.0.0.1:1',
      apiKey: 'run-token',
      env,
      sessionParams: options.sessionParams ?? null,
      prompt: 'Work on ACME-1.',
      skills: [{ name: 'headcount-heartbeat', description: 'How to work a heartbeat', markdown: '# Skill\n' }],
    },
    context: { taskId: 'ACME-1', taskTitle: 'First' },
    runId: 'run-1',
    onLog: () => undefined,
    onMeta: (m) => Object.assign(meta, m),
  };
  const result = await vendorBLocalAdapter.execute(ctx);
  const calls = readFileSync(record, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  return { result, calls, meta };
}

describe('vendor_b_local execute() on recorded Codex output', () => {
  for (const pty of [true, false]) {
    const mode = pty ? 'PTY' : 'pipes';
    it(`success with tool use: usage priced from the table, thread id, summary (${mode})`, async () => {
      const { result, calls, meta } = await replay('success-tool-use.jsonl', { pty });
      // 2650 input of which 2300 cached, 50 output; gpt-5 at $1.25/$0.125/$10 per million.
      expect(result).toMatchObject({
        exitCode: 0,
        usage: { provider: 'openai', model: 'gpt-5', inputTokens: 350, cachedInputTokens: 2300, outputTokens: 50, costStatus: 'priced' },
        sessionParams: { threadId: THREAD, cwd: tmp, totals: { input: 2650, cached: 2300, output: 50 } },
        summary: 'Done. The tool said: agent-a-1',
      });
      expect(result.usage!.costCents).toBeCloseTo((350 * 1.25 + 2300 * 0.125 + 50 * 10) / 1e4, 6);
      expect(result.errorCode).toBeUndefined();
      const argv: string[] = calls[0].argv;
      expect(argv.slice(0, 3)).toEqual(['exec', '--json', '--skip-git-repo-check']);
      expect(argv).toEqual(expect.arrayContaining(['--model', 'gpt-5', '--sandbox', 'workspace-write', '-c', 'sandbox_workspace_write.network_access=true']));
      expect(argv).not.toContain('resume');
      // The skill lives in a per-run directory, gone after the run.
      const skillsRoot = argv[argv.indexOf('--add-dir') + 1]!;
      expect(() => readdirSync(skillsRoot)).toThrow();
      if (pty) {
        expect(argv.at(-2)).toBe('--');
        expect(argv.at(-1)).toMatch(/^Work on ACME-1\.\n\nSkills for this run .*headcount-heartbeat\/SKILL\.md$/);
      } else {
        expect(argv.at(-1)).toBe('-');
        expect(calls[0].stdin).toMatch(/^Work on ACME-1\./);
      }
      expect(calls[0].env).toMatchObject({ SERVICE_API_KEY: 'run-token', SERVICE_RUN_ID: 'run-1' });
      expect(meta).toMatchObject({ sessionId: THREAD, model: 'gpt-5', resumed: false });
      expect(meta.args).not.toContain('Work on ACME-1.');
    });

    it(`login required with the hint, even on exit 0 (${mode})`, async () => {
      for (const exit of [1, 0]) {
        const { result } = await replay('login-required.jsonl', { pty, exit });
        expect(result).toMatchObject({ exitCode: exit, errorCode: 'login_required', errorHint: LOGIN_HINT, usage: null });
        expect(result.errorMessage).toMatch(/401 Unauthorized: Incorrect API key/);
      }
    });
  }

  it('resumes the stored thread and records only this heartbeat\'s tokens', async () => {
    const stored = { threadId: THREAD, cwd: tmp, totals: { input: 2650, cached: 2300, output: 50 } };
    const { result, calls, meta } = await replay('resume.jsonl', { pty: true, sessionParams: stored });
    const argv: string[] = calls[0].argv;
    expect(argv.slice(argv.indexOf('resume'), argv.indexOf('resume') + 2)).toEqual(['resume', THREAD]);
    expect(result).toMatchObject({ summary: 'Nothing left to do.', usage: { inputTokens: 40, cachedInputTokens: 2400, outputTokens: 10 }, sessionParams: { threadId: THREAD, totals: { input: 5090, cached: 4700, output: 60 } } });
    expect(meta.resumed).toBe(true);
    // A thread of another directory is not resumed.
    const elsewhere = await replay('success-tool-use.jsonl', { pty: true, sessionParams: { ...stored, cwd: '/somewhere/else' } });
    expect(elsewhere.calls[0].argv).not.toContain('resume');
  });

  it('an unknown thread clears the stored session (the error arrives on stderr)', async () => {
    for (const pty of [true, false]) {
      const { result } = await replay('unknown-session.jsonl', { pty, exit: 1, stderr: 'unknown-session.stderr.txt', sessionParams: { threadId: '3f1e6a51-0000-4000-8000-123456789abc', cwd: tmp } });
      expect(result).toMatchObject({ errorCode: 'unknown_session', sessionParams: null, errorMessage: expect.stringContaining('no rollout found for thread id') });
    }
  });

  it('classifies rate and usage limits, with the reset time when Codex gives one', async () => {
    const limited = await replay('rate-limit.jsonl', { pty: true, exit: 1 });
    expect(limited.result).toMatchObject({ errorCode: 'rate_limited', rateLimitResetAt: null, errorMessage: expect.stringContaining('429 Too Many Requests') });
    const usage = await replay('usage-limit.jsonl', { pty: true, exit: 1 });
    expect(usage.result.errorCode).toBe('rate_limited');
    const reset = new Date(usage.result.rateLimitResetAt!);
    expect([reset.getUTCHours(), reset.getUTCMinutes()]).toEqual([17, 0]);
    expect(reset.getTime() - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
  });

  it('a failed turn is a failure even with exit 0; a model without a price is unpriced', async () => {
    const { result } = await replay('error.jsonl', { pty: false, exit: 0 });
    expect(result).toMatchObject({ exitCode: 0, errorCode: 'cli_error', errorMessage: expect.stringContaining('high demand') });
    const unpriced = await replay('success-tool-use.jsonl', { pty: true, config: { model: 'my-local-model' } });
    expect(unpriced.result.usage).toMatchObject({ model: 'my-local-model', costCents: null, costStatus: 'unpriced' });
  });

  it('a clean exit without a finished turn is a failure', async () => {
    writeFileSync(path.join(tmp, 'noise.txt'), 'some noise\n');
    const { result } = await replay(path.relative(FIXTURES, path.join(tmp, 'noise.txt')), { pty: true });
    expect(result).toMatchObject({ exitCode: 0, errorCode: 'no_result' });
  });
});

describe('vendor_b_local UI parser', () => {
  const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.jsonl') && readFileSync(fixture(f), 'utf8').trim());

  it('replays every fixture to the same entries twice', () => {
    for (const file of files) {
      const lines = splitLines(readFileSync(fixture(file), 'utf8'));
      const once = lines.flatMap((l, i) => parseStdoutLine(l, `t${i}`));
      expect(lines.flatMap((l, i) => parseStdoutLine(l, `t${i}`))).toEqual(once);
      expect(once.length).toBeGreaterThan(0);
    }
  });

  it('reads the success fixture into init, text, shell call, result and usage', () => {
    const entries = splitLines(readFileSync(fixture('success-tool-use.jsonl'), 'utf8')).flatMap((l) => parseStdoutLine(l, 'ts'));
    expect(entries.map((e) => e.kind)).toEqual(['init', 'system', 'assistant', 'tool_call', 'tool_result', 'assistant', 'result']);
    expect(entries[0]).toEqual({ kind: 'init', ts: 'ts', model: null, sessionId: THREAD });
    expect(entries[3]).toMatchObject({ kind: 'tool_call', name: 'shell', input: { command: "/bin/bash -lc 'echo agent-$SERVICE_AGENT_ID'" } });
    expect(entries[4]).toMatchObject({ kind: 'tool_result', content: 'agent-a-1\n', isError: false });
    expect(entries[6]).toMatchObject({ kind: 'result', isError: false, inputTokens: 350, outputTokens: 50, cachedTokens: 2300, costUsd: null });
    const failed = splitLines(readFileSync(fixture('login-required.jsonl'), 'utf8')).flatMap((l) => parseStdoutLine(l, 'ts'));
    expect(failed.at(-1)).toMatchObject({ kind: 'result', isError: true });
  });

  it('never throws on garbage', async () => {
    for (const odd of ['{', '{"type":"item.completed","item":{"type":"command_execution","exit_code":"x"}}', '{"type":"turn.completed","usage":"x"}', '[]', 'null', '{"type":42}']) {
      expect(() => parseStdoutLine(odd, 'ts')).not.toThrow();
    }
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((v) => JSON.stringify({ type: 'item.completed', item: v }))), (line) => {
        const entries = parseStdoutLine(line, 'ts');
        return Array.isArray(entries) && JSON.stringify(entries) === JSON.stringify(parseStdoutLine(line, 'ts'));
      }),
      { numRuns: 500 },
    );
    await expectServedParserSelfContained('vendor-b-local', parseStdoutLine);
  });
});

describe('vendor_b_local module', () => {
  it('is registered with the contract members, and formats lines for run watch', () => {
    const adapter = createServerAdapter();
    expect(createBuiltinRegistry().get('vendor_b_local')).toBe(adapter);
    expect(adapter.agentConfigurationDoc).toMatch(/\*\*Use when\*\*[\s\S]*\*\*Do not use when\*\*/);
    expect(adapter.sessionCodec!.deserialize({ threadId: THREAD, cwd: '/w' })).toEqual({ threadId: THREAD, cwd: '/w', totals: null });
    expect(adapter.sessionCodec!.deserialize({ threadId: '../x' })).toBeNull();
    expect(adapter.configSchema.safeParse({ cwd: 'relative' }).success).toBe(false);
    expect(adapter.configSchema.safeParse({ sandbox: 'everything' }).success).toBe(false);
    const lines = splitLines(readFileSync(fixture('success-tool-use.jsonl'), 'utf8')).map((l) => cliFormatter.formatLine(l, { color: false }));
    expect(lines[0]).toContain(THREAD);
    expect(lines).toContain('Let me check who I am.');
  });

  it('lists and syncs its skill as ephemeral, detects the model of config.toml', async () => {
    const ctx = { config: {}, agent: { id: 'a', name: 'A', companyId: 'c' } };
    expect(await vendorBLocalAdapter.listSkills!(ctx)).toMatchObject({ adapterType: 'vendor_b_local', supported: true, mode: 'ephemeral', entries: [{ name: 'headcount-heartbeat', installed: true }] });
    const home = path.join(tmp, 'codex-home');
    mkdirSync(home, { recursive: true });
    expect(await detectModelFromEnv({ CODEX_HOME: home })).toMatchObject({ model: null, provider: 'openai', source: 'default' });
    writeFileSync(path.join(home, 'config.toml'), 'model = "gpt-5-codex" # mine\nmodel_provider = "local"\n\n[model_providers.local]\nbase_url = "http://127.0.0.1:1/v1"\nenv_key = "LOCAL_KEY"\n');
    expect(await detectModelFromEnv({ CODEX_HOME: home })).toMatchObject({ model: 'gpt-5-codex', provider: 'local', source: path.join(home, 'config.toml') });
  });

  it('models: the static list merged with the provider discovery, static when discovery fails', async () => {
    const server = await startOpenAiScriptServer([], { models: ['gpt-5', 'my-finetune', 'gpt-oss-120b'] });
    try {
      const merged = await listCodexModels({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-x', CODEX_HOME: path.join(tmp, 'none') });
      expect(merged.map((m) => m.id)).toEqual([...CODEX_MODELS.map((m) => m.id), 'gpt-oss-120b', 'my-finetune']);
      expect(server.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/models', headers: { authorization: 'Bearer sk-x' } });
    } finally {
      await server.close();
    }
    expect(await listCodexModels({ OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_API_KEY: 'k', CODEX_HOME: path.join(tmp, 'none') })).toEqual(CODEX_MODELS);
    expect(await listCodexModels({ CODEX_HOME: path.join(tmp, 'none') })).toEqual(CODEX_MODELS);
  });

  it('testEnvironment detects the installed codex and its version', async () => {
    const home = path.join(tmp, 'env-home');
    const noHome = await vendorBLocalAdapter.testEnvironment({ config: { command: CODEX }, env: { HOME: home, CODEX_HOME: path.join(home, '.codex') } });
    expect(noHome.checks.find((c) => c.code === 'codex_home_missing')).toMatchObject({ level: 'error' });
    mkdirSync(path.join(home, '.codex'), { recursive: true });
    const result = await vendorBLocalAdapter.testEnvironment({ config: { command: CODEX, cwd: path.join(tmp, 'work') }, env: { HOME: home, CODEX_HOME: path.join(home, '.codex'), OPENAI_API_KEY: '' } });
    expect(result.status).toBe('pass');
    expect(result.checks.map((c) => c.code)).toEqual(['cwd_created', 'cli_detected', 'cli_version', 'auth_missing']);
    expect(result.checks[2]!.message).toMatch(/codex-cli \d+\.\d+\.\d+/);
    writeFileSync(path.join(home, '.codex', 'auth.json'), '{}');
    const both = await vendorBLocalAdapter.testEnvironment({ config: { command: CODEX }, env: { HOME: home, CODEX_HOME: path.join(home, '.codex'), OPENAI_API_KEY: 'sk-test' } });
    expect(both.checks.find((c) => c.code === 'api_key_overrides_login')).toMatchObject({ level: 'warn' });
    const relative = await vendorBLocalAdapter.testEnvironment({ config: { command: CODEX, cwd: 'relative' }, env: {} });
    expect(relative.checks.find((c) => c.code === 'invalid_cwd')).toMatchObject({ level: 'error' });
    const missing = await vendorBLocalAdapter.testEnvironment({ config: { command: 'no-such-codex-xyz' }, env: {} });
    expect(missing.status).toBe('fail');
    expect(missing.checks.find((c) => c.code === 'cli_not_found')?.hint).toMatch(/@openai\/codex/);
  });
});
