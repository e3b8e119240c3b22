import { agentCli } from '../../helpers/agent-clis.js';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { splitLines, type ExecutionContext } from '@service/adapter-utils';
import { vendorFLocalAdapter } from '../../../adapters/vendor-f-local/descriptor.js';
import { createServerAdapter } from '../../../adapters/vendor-f-local/index.js';
import { parseStdoutLine } from '../../../adapters/vendor-f-local/ui-parser.js';
import { cliFormatter } from '../../../adapters/vendor-f-local/cli-formatter.js';
import { LOGIN_HINT } from '../../../adapters/vendor-f-local/errors.js';
import { detectModel } from '../../../adapters/vendor-f-local/detect-model.js';
import { promptArg } from '../../../adapters/vendor-f-local/args.js';
import { createBuiltinRegistry } from '../../../adapters/registry.js';
import { expectServedParserSelfContained } from './served-ui-parser.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../../adapters/vendor-f-local/fixtures');
const REPLAY = path.resolve(import.meta.dirname, '../../fixtures/cli-replay.mjs');
const PI = agentCli('pi');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'hc-vendor-f-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const fixture = (name: string) => path.join(FIXTURES, name);
const SESSION = '01a203ae-af6e-7139-9098-18d514e19d40';

let n = 0;
async function replay(file: string, options: { pty: boolean; exit?: number; stderr?: string; sessionParams?: Record<string, unknown> | null; config?: Record<string, unknown> }) {
  const record = path.join(tmp, `record-${++n}.jsonl`);
  const env: Record<string, string> = { CLI_REPLAY_FILE: fixture(file), CLI_REPLAY_RECORD: record, CLI_REPLAY_EXIT: String(options.exit ?? 0), CLI_REPLAY_DELAY_MS: '2' };
  if (options.pty) env.CLI_REPLAY_WAIT_STDIN = '0';
  if (options.stderr) env.CLI_REPLAY_STDERR_FILE = fixture(options.stderr);
  const meta: Record<string, unknown> = {};
  const ctx: ExecutionContext = {
    config: vendorFLocalAdapter.configSchema.parse({ command: REPLAY, cwd: tmp, pty: options.pty, timeoutSec: 30, ...options.config }),
    agent: { id: 'agent-1', name: 'Pia', companyId: 'company-1' },
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
  const result = await vendorFLocalAdapter.execute(ctx);
  const calls = readFileSync(record, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  return { result, calls, meta };
}

describe('vendor_f_local execute() on recorded pi output', () => {
  for (const pty of [true, false]) {
    const mode = pty ? 'PTY' : 'pipes';

    it(`success with a tool call: usage, cost pi reported, session, summary (${mode})`, async () => {
      const { result, calls, meta } = await replay('success-tool-use.jsonl', { pty });
      expect(result).toMatchObject({
        exitCode: 0,
        timedOut: false,
        // Two model calls: 300+400 uncached, 100+200 cached, 20+30 out; pi's own price 0.0005875+0.000825 USD.
        usage: { provider: 'scripted', model: 'gpt-5', inputTokens: 700, outputTokens: 50, cachedInputTokens: 300, costCents: 0.14125, costStatus: 'reported' },
        sessionParams: { sessionId: SESSION, cwd: tmp },
        summary: 'Done. The tool said: agent-a-1',
      });
      expect(result.errorCode).toBeUndefined();
      const argv: string[] = calls[0]!.argv;
      expect(argv.slice(0, 3)).toEqual(['-p', '--mode', 'json']);
      expect(argv).not.toContain('--session');
      const skillDir = argv[argv.indexOf('--skill') + 1]!;
      expect(skillDir.startsWith(os.tmpdir())).toBe(true);
      expect(() => readdirSync(skillDir)).toThrow();
      if (pty) {
        expect(argv.at(-1)).toBe('Work on ACME-1.');
        expect(calls[0]!.isTTY).toBe(true);
      } else {
        expect(calls[0]!.stdin).toBe('Work on ACME-1.');
        expect(argv).not.toContain('Work on ACME-1.');
      }
      expect(calls[0]!.env).toMatchObject({ SERVICE_API_KEY: 'run-token', SERVICE_RUN_ID: 'run-1', PI_OFFLINE: '1' });
      expect(meta).toMatchObject({ sessionId: SESSION, resumed: false });
      expect(meta.args).not.toContain('Work on ACME-1.');
    });

    it(`login required: a 401 on exit 0, and no key at all on exit 1 (${mode})`, async () => {
      const unauthorized = await replay('login-401.jsonl', { pty });
      expect(unauthorized.result).toMatchObject({ exitCode: 0, errorCode: 'login_required', errorMessage: expect.stringMatching(/^401 Incorrect API key/), errorHint: LOGIN_HINT, usage: null });
      const noKey = await replay('login-no-key.jsonl', { pty, exit: 1, stderr: 'login-no-key.stderr.txt' });
      expect(noKey.result).toMatchObject({ exitCode: 1, errorCode: 'login_required', errorMessage: 'No API key found for anthropic.', errorHint: LOGIN_HINT, usage: null });
    });

    it(`an unknown session clears the stored one (${mode})`, async () => {
      const { result, calls } = await replay('unknown-session.jsonl', { pty, exit: 1, stderr: 'unknown-session.stderr.txt', sessionParams: { sessionId: '3f1e6a51-0000-4000-8000-123456789abc', cwd: tmp } });
      expect(calls[0]!.argv).toContain('--session');
      expect(result).toMatchObject({ errorCode: 'unknown_session', sessionParams: null });
    });
  }

  it('resumes the stored session of the same directory only', async () => {
    const { result, calls, meta } = await replay('resume.jsonl', { pty: true, sessionParams: { sessionId: SESSION, cwd: tmp } });
    const argv: string[] = calls[0]!.argv;
    expect(argv[argv.indexOf('--session') + 1]).toBe(SESSION);
    expect(result.sessionParams).toEqual({ sessionId: SESSION, cwd: tmp });
    expect(meta.resumed).toBe(true);
    const elsewhere = await replay('resume.jsonl', { pty: true, sessionParams: { sessionId: SESSION, cwd: '/somewhere/else' } });
    expect(elsewhere.calls[0]!.argv).not.toContain('--session');
  });

  it('passes provider, model, thinking, tools, system prompt and session dir', async () => {
    const { calls } = await replay('success-tool-use.jsonl', { pty: true, config: { provider: 'anthropic', model: 'claude-sonnet-4-5', thinking: 'high', tools: ['bash'], appendSystemPrompt: 'Be brief.', sessionDir: path.join(tmp, 'sessions') } });
    const argv: string[] = calls[0]!.argv;
    const after = (flag: string) => argv[argv.indexOf(flag) + 1];
    expect([after('--provider'), after('--model'), after('--thinking'), after('--tools'), after('--append-system-prompt'), after('--session-dir')]).toEqual(['anthropic', 'claude-sonnet-4-5', 'high', 'bash,read', 'Be brief.', path.join(tmp, 'sessions')]);
  });

  it('a rate limit carries the reset time the provider gave', async () => {
    const before = Date.now();
    const { result } = await replay('rate-limit.jsonl', { pty: true });
    expect(result).toMatchObject({ exitCode: 0, errorCode: 'rate_limited', errorMessage: expect.stringMatching(/^429 Rate limit reached/) });
    const reset = Date.parse(result.rateLimitResetAt!);
    expect(reset).toBeGreaterThanOrEqual(before + 19_000);
    expect(reset).toBeLessThanOrEqual(Date.now() + 21_000);
  });

  it('stops the run after maxTurns, keeping the usage of the turns taken', async () => {
    const { result } = await replay('max-turns-loop.jsonl', { pty: false, config: { maxTurns: 2 } });
    expect(result).toMatchObject({ errorCode: 'max_turns', sessionParams: { sessionId: expect.any(String) } });
    expect(result.usage!.outputTokens).toBeGreaterThan(0);
    expect(result.usage!.outputTokens).toBeLessThan(50);
    const whole = await replay('max-turns-loop.jsonl', { pty: false, config: { maxTurns: 10 } });
    expect(whole.result.errorCode).toBeUndefined();
    expect(whole.result.usage).toMatchObject({ inputTokens: 520, outputTokens: 80, costStatus: 'reported' });
  });

  it('an API error is a failure although pi exits 0', async () => {
    const { result } = await replay('error.jsonl', { pty: false });
    expect(result).toMatchObject({ exitCode: 0, errorCode: 'cli_error', errorMessage: '500 The server had an error while processing your request.' });
  });

  it('a clean exit that never finished the agent loop is a failure; a dash-led prompt stays a message', async () => {
    const noise = path.join(tmp, 'noise.txt');
    writeFileSync(noise, 'some noise\n');
    const { result } = await replay(path.relative(FIXTURES, noise), { pty: true });
    expect(result).toMatchObject({ exitCode: 0, errorCode: 'no_result' });
    expect(promptArg('--help me')).toBe(' --help me');
    expect(promptArg('@file')).toBe(' @file');
    expect(promptArg('Work')).toBe('Work');
  });
});

describe('vendor_f_local UI parser', () => {
  const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.jsonl') || f.endsWith('.txt'));

  it('replays every fixture to the same entries twice', () => {
    for (const file of files) {
      const lines = splitLines(readFileSync(fixture(file), 'utf8'));
      const once = lines.flatMap((l, i) => parseStdoutLine(l, `t${i}`));
      expect(lines.flatMap((l, i) => parseStdoutLine(l, `t${i}`))).toEqual(once);
      if (lines.length) expect(once.length).toBeGreaterThan(0);
    }
  });

  it('reads the success fixture into init, prompt, text, tool call, tool result and result', () => {
    const entries = splitLines(readFileSync(fixture('success-tool-use.jsonl'), 'utf8')).flatMap((l) => parseStdoutLine(l, 'ts'));
    expect(entries.map((e) => e.kind)).toEqual(['init', 'user', 'assistant', 'tool_call', 'tool_result', 'assistant', 'result']);
    expect(entries[0]).toEqual({ kind: 'init', ts: 'ts', model: null, sessionId: SESSION });
    expect(entries[3]).toMatchObject({ kind: 'tool_call', name: 'bash', input: { command: 'echo agent-$SERVICE_AGENT_ID' } });
    expect(entries[4]).toMatchObject({ kind: 'tool_result', content: 'agent-a-1\n', isError: false });
    expect(entries[6]).toMatchObject({ kind: 'result', isError: false, subtype: 'stop', text: 'Done. The tool said: agent-a-1', inputTokens: 700, outputTokens: 50, cachedTokens: 300 });
    const errorEntries = splitLines(readFileSync(fixture('login-401.jsonl'), 'utf8')).flatMap((l) => parseStdoutLine(l, 'ts'));
    expect(errorEntries.at(-1)).toMatchObject({ kind: 'result', isError: true, subtype: 'error', errors: [expect.stringMatching(/^401/)] });
  });

  it('never throws on garbage, and a plain line becomes stdout', () => {
    expect(parseStdoutLine('not json', 'ts')).toEqual([{ kind: 'stdout', ts: 'ts', text: 'not json' }]);
    for (const odd of ['{', '{"type":"message_end","message":{"role":"assistant","content":[null,1,{"type":"toolCall"}]}}', '{"type":"agent_end","messages":"x"}', '[]', 'null', '{"type":42}']) {
      expect(() => parseStdoutLine(odd, 'ts')).not.toThrow();
    }
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.jsonValue().map((v) => JSON.stringify({ type: 'message_end', message: { role: 'assistant', content: v, usage: v } })),
          fc.jsonValue().map((v) => JSON.stringify({ type: 'agent_end', messages: v })),
        ),
        (line) => {
          const entries = parseStdoutLine(line, 'ts');
          return Array.isArray(entries) && JSON.stringify(entries) === JSON.stringify(parseStdoutLine(line, 'ts'));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('is self-contained as served: the built file imports nothing and parses like the source', async () => {
    await expectServedParserSelfContained('vendor-f-local', parseStdoutLine);
  });
});

describe('vendor_f_local module', () => {
  it('is registered, and createServerAdapter returns the contract members', () => {
    const adapter = createServerAdapter();
    expect(createBuiltinRegistry().get('vendor_f_local')).toBe(adapter);
    expect(adapter.agentConfigurationDoc).toMatch(/\*\*Use when\*\*/);
    expect(adapter.agentConfigurationDoc).toMatch(/\*\*Do not use when\*\*/);
    expect(adapter.sessionCodec!.deserialize({ sessionId: SESSION, cwd: '/w' })).toEqual({ sessionId: SESSION, cwd: '/w' });
    expect(adapter.sessionCodec!.deserialize({ sessionId: '../x' })).toBeNull();
    expect(adapter.configSchema.safeParse({ cwd: 'relative' }).success).toBe(false);
    expect(adapter.configSchema.safeParse({ thinking: 'extreme' }).success).toBe(false);
  });

  it('formats lines for run watch', () => {
    const lines = splitLines(readFileSync(fixture('success-tool-use.jsonl'), 'utf8'))
      .map((l) => cliFormatter.formatLine(l, { color: false }))
      .filter((l): l is string => l !== null && l !== '')
      .flatMap((l) => l.split('\n'));
    expect(lines[0]).toBe(`session ${SESSION}`);
    expect(lines).toContain('→ bash: echo agent-$SERVICE_AGENT_ID');
    expect(lines.at(-1)).toMatch(/^✓ Done\. The tool said: agent-a-1 · 700 in \/ 50 out \/ 300 cached · \$0\.0014/);
  });

  it('lists its skill as ephemeral and detects the default model from settings.json', async () => {
    const ctx = { config: {}, agent: { id: 'a', name: 'A', companyId: 'c' } };
    expect(await vendorFLocalAdapter.listSkills!(ctx)).toMatchObject({ adapterType: 'vendor_f_local', supported: true, mode: 'ephemeral', entries: [{ name: 'headcount-heartbeat', installed: true }] });
    const agentDir = path.join(tmp, 'pi-agent');
    expect(await detectModel({ PI_CODING_AGENT_DIR: agentDir })).toMatchObject({ model: null, source: 'default' });
    mkdirSync(agentDir, { recursive: true });
    writeFileSync(path.join(agentDir, 'settings.json'), JSON.stringify({ defaultProvider: 'anthropic', defaultModel: 'claude-sonnet-4-5' }));
    expect(await detectModel({ PI_CODING_AGENT_DIR: agentDir })).toMatchObject({ model: 'claude-sonnet-4-5', provider: 'anthropic', source: path.join(agentDir, 'settings.json') });
  });

  it('testEnvironment detects the installed pi with its version, and its credentials', async () => {
    const home = path.join(tmp, 'home');
    // One real `pi --version` (slow to start): the rest of the checks need no pi process.
    const result = await vendorFLocalAdapter.testEnvironment({ config: { command: PI, cwd: path.join(tmp, 'work') }, env: { HOME: home, PI_CODING_AGENT_DIR: path.join(home, 'agent'), ANTHROPIC_API_KEY: 'sk-test' } });
    expect(result.status).toBe('pass');
    expect(result.checks.map((c) => c.code)).toEqual(['cwd_created', 'cli_detected', 'cli_version', 'auth_env']);
    expect(result.checks[2]!.message).toMatch(/0\.73\.\d+/);
    expect(result.checks[3]).toMatchObject({ level: 'info', message: expect.stringContaining('ANTHROPIC_API_KEY') });
    const missing = await vendorFLocalAdapter.testEnvironment({ config: { command: 'no-such-pi-xyz' }, env: { HOME: home, PI_CODING_AGENT_DIR: path.join(home, 'agent') } });
    expect(missing).toMatchObject({ status: 'fail' });
    expect(missing.checks.find((c) => c.code === 'auth_missing')).toMatchObject({ level: 'warn' });
    expect(missing.checks.find((c) => c.code === 'cli_not_found')).toMatchObject({ level: 'error', hint: expect.stringMatching(/@mariozechner\/pi-coding-agent/) });
  });
});
