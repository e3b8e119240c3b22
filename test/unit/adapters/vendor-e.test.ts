import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { splitLines, type ExecutionContext } from '@service/adapter-utils';
import { vendorEAdapter } from '../../../adapters/vendor-e/descriptor.js';
import { createServerAdapter } from '../../../adapters/vendor-e/index.js';
import { parseStdoutLine } from '../../../adapters/vendor-e/ui-parser.js';
import { cliFormatter } from '../../../adapters/vendor-e/cli-formatter.js';
import { LOGIN_HINT } from '../../../adapters/vendor-e/errors.js';
import { detectModel } from '../../../adapters/vendor-e/detect-model.js';
import { priceModelId } from '../../../adapters/vendor-e/models.js';
import { createBuiltinRegistry } from '../../../adapters/registry.js';
import { expectServedParserSelfContained } from './served-ui-parser.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../../adapters/vendor-e/fixtures');
const REPLAY = path.resolve(import.meta.dirname, '../../fixtures/cli-replay.mjs');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'hc-vendor-e-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const fixture = (name: string) => path.join(FIXTURES, name);
const CHAT = '7c1f4e2a-93b5-4d0e-8a61-2f5b9c3d7e10';
const SKILL = { name: 'headcount-heartbeat' as const, description: 'How to work a heartbeat', markdown: '# Heartbeat skill\nCall the API.\n' };

let n = 0;
async function replay(file: string, options: { pty: boolean; exit?: number; stderr?: string; sessionParams?: Record<string, unknown> | null; config?: Record<string, unknown> }) {
  const record = path.join(tmp, `record-${++n}.jsonl`);
  const env: Record<string, string> = { CLI_REPLAY_FILE: fixture(file), CLI_REPLAY_RECORD: record, CLI_REPLAY_EXIT: String(options.exit ?? 0), CLI_REPLAY_DELAY_MS: '2' };
  if (options.pty) env.CLI_REPLAY_WAIT_STDIN = '0';
  if (options.stderr) env.CLI_REPLAY_STDERR_FILE = fixture(options.stderr);
  const meta: Record<string, unknown> = {};
  const ctx: ExecutionContext = {
    config: vendorEAdapter.configSchema.parse({ command: REPLAY, cwd: tmp, pty: options.pty, timeoutSec: 30, ...options.config }),
    agent: { id: 'agent-1', name: 'Cora', companyId: 'company-1' },
    runtime: { apiUrl: 'http://127.0.0.1:1', apiKey: 'run-token', env, sessionParams: options.sessionParams ?? null, prompt: 'Work on ACME-1.', skills: [SKILL] },
    context: { taskId: 'ACME-1', taskTitle: 'First' },
    runId: 'run-1',
    onLog: () => undefined,
    onMeta: (m) => Object.assign(meta, m),
  };
  const result = await vendorEAdapter.execute(ctx);
  const calls = readFileSync(record, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  return { result, calls, meta };
}

describe('vendor_e execute() on Cursor stream-json fixtures (replayed, the CLI is not installable here)', () => {
  for (const pty of [true, false]) {
    const mode = pty ? 'PTY' : 'pipes';

    it(`success with a shell tool call: usage priced from the table, chat id, summary (${mode})`, async () => {
      const { result, calls, meta } = await replay('success-tool-use.jsonl', { pty, config: { model: 'sonnet-4.5' } });
      expect(result).toMatchObject({
        exitCode: 0,
        timedOut: false,
        usage: { provider: 'cursor', model: 'claude-sonnet-4-5', inputTokens: 13112, outputTokens: 128, cachedInputTokens: 7808, costStatus: 'priced' },
        sessionParams: { chatId: CHAT, cwd: tmp },
        summary: 'Let me check who I am.Done. The tool said: agent-a-1',
      });
      expect(result.usage!.costCents).toBeGreaterThan(0);
      expect(result.errorCode).toBeUndefined();
      const argv: string[] = calls[0]!.argv;
      expect(argv.slice(0, 5)).toEqual(['-p', '--output-format', 'stream-json', '--workspace', tmp]);
      expect(argv).toContain('--force');
      expect(argv[argv.indexOf('--model') + 1]).toBe('sonnet-4.5');
      expect(argv).not.toContain('--resume');
      // The heartbeat skill travels in the prompt of this run only.
      const sent = pty ? argv.at(-1)! : calls[0]!.stdin;
      expect(sent).toMatch(/^<skill name="headcount-heartbeat">\n# Heartbeat skill\nCall the API\.\n<\/skill>\n\nWork on ACME-1\.$/);
      expect(calls[0]!.isTTY).toBe(pty);
      expect(calls[0]!.env).toMatchObject({ SERVICE_API_KEY: 'run-token', SERVICE_RUN_ID: 'run-1' });
      expect(meta).toMatchObject({ sessionId: CHAT, model: 'Claude 4.5 Sonnet', resumed: false });
      expect(JSON.stringify(meta.args)).not.toContain('Work on ACME-1.');
    });

    it(`login required, with the hint (${mode})`, async () => {
      const { result } = await replay('login-required.jsonl', { pty, exit: 1, stderr: 'login-required.stderr.txt' });
      expect(result).toMatchObject({ exitCode: 1, errorCode: 'login_required', errorMessage: expect.stringContaining('Authentication required'), errorHint: LOGIN_HINT, usage: null });
    });

    it(`an unknown chat clears the stored session (${mode})`, async () => {
      const { result, calls } = await replay('unknown-session.jsonl', { pty, exit: 1, stderr: 'unknown-session.stderr.txt', sessionParams: { chatId: '3f1e6a51-0000-4000-8000-123456789abc', cwd: tmp } });
      expect(calls[0]!.argv).toContain('--resume');
      expect(result).toMatchObject({ errorCode: 'unknown_session', sessionParams: null });
    });
  }

  it('resumes the stored chat of the same workspace only', async () => {
    const { result, calls, meta } = await replay('resume.jsonl', { pty: true, sessionParams: { chatId: CHAT, cwd: tmp } });
    const argv: string[] = calls[0]!.argv;
    expect(argv[argv.indexOf('--resume') + 1]).toBe(CHAT);
    expect(result).toMatchObject({ summary: 'Nothing left to do on ACME-1.', sessionParams: { chatId: CHAT, cwd: tmp } });
    expect(meta.resumed).toBe(true);
    const elsewhere = await replay('resume.jsonl', { pty: true, sessionParams: { chatId: CHAT, cwd: '/somewhere/else' } });
    expect(elsewhere.calls[0]!.argv).not.toContain('--resume');
  });

  it('the displayed model prices the run, Auto stays unpriced; mode, MCP approval and no --force pass through', async () => {
    const { result, calls } = await replay('resume.jsonl', { pty: true, config: { mode: 'plan', force: false, approveMcps: true } });
    expect(result.usage).toMatchObject({ provider: 'cursor', model: 'claude-sonnet-4-5', costStatus: 'priced' });
    const argv: string[] = calls[0]!.argv;
    expect(argv[argv.indexOf('--mode') + 1]).toBe('plan');
    expect(argv).toContain('--approve-mcps');
    expect(argv).not.toContain('--force');
    const auto = await replay('max-turns-loop.jsonl', { pty: false });
    expect(auto.result).toMatchObject({ summary: 'All steps done.', usage: { model: 'Auto', inputTokens: 4000, costCents: null, costStatus: 'unpriced' } });
    expect(priceModelId('GPT-5')).toBe('gpt-5');
    expect(priceModelId('gpt-5-codex')).toBe('gpt-5-codex');
    expect(priceModelId('opus-4.1')).toBe('claude-opus-4-1');
  });

  it('a usage limit is rate_limited with the reset time Cursor gave', async () => {
    const { result } = await replay('rate-limit.jsonl', { pty: true, exit: 1, stderr: 'rate-limit.stderr.txt' });
    expect(result).toMatchObject({ exitCode: 1, errorCode: 'rate_limited', rateLimitResetAt: '2026-11-23T00:00:00.000Z', sessionParams: { chatId: CHAT } });
  });

  it('stops after maxTurns model calls', async () => {
    const { result } = await replay('max-turns-loop.jsonl', { pty: false, config: { maxTurns: 2 } });
    expect(result).toMatchObject({ errorCode: 'max_turns', errorMessage: 'Stopped after 2 model calls (maxTurns)', sessionParams: { chatId: CHAT } });
  });

  it('an error result is a failure even with exit 0, and so is a clean exit without a result', async () => {
    const { result } = await replay('error-result.jsonl', { pty: false });
    expect(result).toMatchObject({ exitCode: 0, errorCode: 'cli_error', errorMessage: 'Connection to the model provider failed: upstream returned 500', usage: null });
    const noise = path.join(tmp, 'noise.txt');
    writeFileSync(noise, 'some noise\n');
    expect((await replay(path.relative(FIXTURES, noise), { pty: true })).result).toMatchObject({ exitCode: 0, errorCode: 'no_result' });
  });
});

describe('vendor_e UI parser', () => {
  const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.jsonl') || f.endsWith('.txt'));

  it('replays every fixture to the same entries twice', () => {
    for (const file of files) {
      const lines = splitLines(readFileSync(fixture(file), 'utf8'));
      const once = lines.flatMap((l, i) => parseStdoutLine(l, `t${i}`));
      expect(lines.flatMap((l, i) => parseStdoutLine(l, `t${i}`))).toEqual(once);
      if (lines.length) expect(once.length).toBeGreaterThan(0);
    }
  });

  it('reads the success fixture into init, prompt, text, tool call, tool result, text and result', () => {
    const entries = splitLines(readFileSync(fixture('success-tool-use.jsonl'), 'utf8')).flatMap((l) => parseStdoutLine(l, 'ts'));
    expect(entries.map((e) => e.kind)).toEqual(['init', 'user', 'assistant', 'tool_call', 'tool_result', 'assistant', 'result']);
    expect(entries[0]).toEqual({ kind: 'init', ts: 'ts', model: 'Claude 4.5 Sonnet', sessionId: CHAT });
    expect(entries[3]).toMatchObject({ kind: 'tool_call', name: 'shell', input: { command: 'echo agent-$SERVICE_AGENT_ID' }, id: 'call_9Jx2mQ4rT7\nfc_0b8e41_0' });
    expect(entries[4]).toMatchObject({ kind: 'tool_result', content: 'agent-a-1\n', isError: false });
    expect(entries[6]).toMatchObject({ kind: 'result', isError: false, subtype: 'success', inputTokens: 13112, outputTokens: 128, cachedTokens: 7808, costUsd: null });
    expect(parseStdoutLine('{"type":"tool_call","subtype":"completed","call_id":"c","tool_call":{"readToolCall":{"result":{"error":{"errorMessage":"no such file"}}}}}', 'ts')).toEqual([{ kind: 'tool_result', ts: 'ts', toolUseId: 'c', content: 'no such file', isError: true }]);
  });

  it('never throws on garbage, and a plain line becomes stdout', async () => {
    expect(parseStdoutLine('not json', 'ts')).toEqual([{ kind: 'stdout', ts: 'ts', text: 'not json' }]);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.jsonValue().map((v) => JSON.stringify({ type: 'tool_call', subtype: 'completed', tool_call: { shellToolCall: { args: v, result: { success: v } } } })),
          fc.jsonValue().map((v) => JSON.stringify({ type: 'assistant', message: { content: v } })),
          fc.jsonValue().map((v) => JSON.stringify({ type: 'result', usage: v, result: v })),
        ),
        (line) => {
          const entries = parseStdoutLine(line, 'ts');
          return Array.isArray(entries) && JSON.stringify(entries) === JSON.stringify(parseStdoutLine(line, 'ts'));
        },
      ),
      { numRuns: 500 },
    );
    await expectServedParserSelfContained('vendor-e', parseStdoutLine);
  });
});

describe('vendor_e module', () => {
  it('is registered, and createServerAdapter returns the contract members', async () => {
    const adapter = createServerAdapter();
    expect(createBuiltinRegistry().get('vendor_e')).toBe(adapter);
    expect(adapter.agentConfigurationDoc).toMatch(/\*\*Use when\*\*/);
    expect(adapter.agentConfigurationDoc).toMatch(/\*\*Do not use when\*\*/);
    expect(adapter.sessionCodec!.deserialize({ chatId: CHAT, cwd: '/w' })).toEqual({ chatId: CHAT, cwd: '/w' });
    expect(adapter.sessionCodec!.deserialize({ chatId: '../x' })).toBeNull();
    expect(adapter.configSchema.safeParse({ mode: 'yolo' }).success).toBe(false);
    expect(await adapter.listSkills!({ config: {}, agent: { id: 'a', name: 'A', companyId: 'c' } })).toMatchObject({ adapterType: 'vendor_e', mode: 'ephemeral', entries: [{ name: 'headcount-heartbeat', installed: true }] });
    const lines = splitLines(readFileSync(fixture('success-tool-use.jsonl'), 'utf8')).map((l) => cliFormatter.formatLine(l, { color: false }));
    expect(lines).toContain('→ shell: echo agent-$SERVICE_AGENT_ID');
  });

  it('detects the model of cli-config.json', async () => {
    const dir = path.join(tmp, 'cursor-config');
    expect(await detectModel({ CURSOR_CONFIG_DIR: dir })).toMatchObject({ model: null, source: 'default' });
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'cli-config.json'), JSON.stringify({ model: { modelId: 'gpt-5' } }));
    expect(await detectModel({ CURSOR_CONFIG_DIR: dir })).toMatchObject({ model: 'gpt-5', provider: 'cursor', source: path.join(dir, 'cli-config.json') });
  });

  it('testEnvironment: cursor-agent missing is an error with the install hint; on PATH it is detected with its version', async () => {
    const empty = path.join(tmp, 'empty-bin');
    mkdirSync(empty, { recursive: true });
    const missing = await vendorEAdapter.testEnvironment({ config: { cwd: path.join(tmp, 'ws') }, env: { PATH: empty, HOME: tmp } });
    expect(missing.status).toBe('fail');
    expect(missing.checks.find((c) => c.code === 'cli_not_found')).toMatchObject({ level: 'error', hint: expect.stringContaining('curl https://cursor.com/install') });
    const bin = path.join(tmp, 'bin');
    mkdirSync(bin, { recursive: true });
    symlinkSync(REPLAY, path.join(bin, 'cursor-agent'));
    const found = await vendorEAdapter.testEnvironment({ config: {}, env: { PATH: `${bin}${path.delimiter}${path.dirname(process.execPath)}`, HOME: tmp, CLI_REPLAY_VERSION: '2026.11.20-4b1d2e3', CURSOR_API_KEY: 'key' } });
    expect(found.status).toBe('pass');
    expect(found.checks.map((c) => c.code)).toEqual(['cwd_exists', 'cli_detected', 'cli_version', 'auth_api_key']);
    expect(found.checks[2]!.message).toContain('2026.11.20-4b1d2e3');
    const probeEnv = { PATH: `${bin}${path.delimiter}${path.dirname(process.execPath)}`, HOME: tmp, CURSOR_API_KEY: 'key' };
    const hello = await vendorEAdapter.testEnvironment({ config: { helloProbe: true }, env: { ...probeEnv, CLI_REPLAY_FILE: fixture('resume.jsonl') } });
    expect(hello.checks.at(-1)).toMatchObject({ level: 'info', code: 'hello_probe_ok', message: 'Cursor answered: Nothing left to do on ACME-1.' });
    const refused = await vendorEAdapter.testEnvironment({ config: { helloProbe: true }, env: { ...probeEnv, CLI_REPLAY_FILE: fixture('login-required.jsonl'), CLI_REPLAY_STDERR_FILE: fixture('login-required.stderr.txt'), CLI_REPLAY_EXIT: '1' } });
    expect(refused).toMatchObject({ status: 'fail' });
    expect(refused.checks.at(-1)).toMatchObject({ level: 'error', code: 'login_required', hint: LOGIN_HINT });
  });
});
