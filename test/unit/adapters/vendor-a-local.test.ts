import { agentCli } from '../../helpers/agent-clis.js';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { splitLines, type ExecutionContext } from '@service/adapter-utils';
import { vendorALocalAdapter } from '../../../adapters/vendor-a-local/descriptor.js';
import { createServerAdapter } from '../../../adapters/vendor-a-local/index.js';
import { parseStdoutLine } from '../../../adapters/vendor-a-local/ui-parser.js';
import { cliFormatter } from '../../../adapters/vendor-a-local/cli-formatter.js';
import { LOGIN_HINT } from '../../../adapters/vendor-a-local/errors.js';
import { detectModel } from '../../../adapters/vendor-a-local/detect-model.js';
import { createBuiltinRegistry } from '../../../adapters/registry.js';
import { expectServedParserSelfContained } from './served-ui-parser.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../../adapters/vendor-a-local/fixtures');
const REPLAY = path.resolve(import.meta.dirname, '../../fixtures/cli-replay.mjs');
const CLAUDE = agentCli('claude');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'hc-vendor-a-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const fixture = (name: string) => path.join(FIXTURES, name);
const SESSION = 'acd5810d-9a38-4668-9825-a7cea6a8f42d';

interface Run {
  result: Awaited<ReturnType<typeof vendorALocalAdapter.execute>>;
  calls: { argv: string[]; stdin: string; isTTY: boolean; env: Record<string, string> }[];
  meta: Record<string, unknown>;
  log: string;
}

let n = 0;
async function replay(file: string, options: { pty: boolean; exit?: number; stderr?: string; sessionParams?: Record<string, unknown> | null; config?: Record<string, unknown> }): Promise<Run> {
  const record = path.join(tmp, `record-${++n}.jsonl`);
  const env: Record<string, string> = { CLI_REPLAY_FILE: fixture(file), CLI_REPLAY_RECORD: record, CLI_REPLAY_EXIT: String(options.exit ?? 0), CLI_REPLAY_DELAY_MS: '5' };
  if (options.pty) env.CLI_REPLAY_WAIT_STDIN = '0';
  if (options.stderr) env.CLI_REPLAY_STDERR_FILE = fixture(options.stderr);
  const meta: Record<string, unknown> = {};
  let log = '';
  const ctx: ExecutionContext = {
    config: vendorALocalAdapter.configSchema.parse({ command: REPLAY, cwd: tmp, pty: options.pty, timeoutSec: 30, ...options.config }),
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
    onLog: (_s, chunk) => (log += chunk),
    onMeta: (m) => Object.assign(meta, m),
  };
  const result = await vendorALocalAdapter.execute(ctx);
  const calls = readFileSync(record, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  return { result, calls, meta, log };
}

describe('vendor_a_local execute() on recorded Claude Code output', () => {
  for (const pty of [true, false]) {
    const mode = pty ? 'PTY' : 'pipes';

    it(`success with tool use: usage, reported cost, session, summary (${mode})`, async () => {
      const { result, calls, meta } = await replay('success-tool-use.jsonl', { pty });
      expect(result).toMatchObject({
        exitCode: 0,
        timedOut: false,
        usage: { provider: 'anthropic', model: 'claude-opus-4-8[1m]', inputTokens: 1350, outputTokens: 50, cachedInputTokens: 1000, costCents: 0.975, costStatus: 'reported' },
        sessionParams: { sessionId: SESSION, cwd: tmp },
        summary: 'Done. The tool said: agent-a-1',
      });
      expect(result.errorCode).toBeUndefined();
      const argv = calls[0]!.argv;
      expect(argv.slice(0, 4)).toEqual(['-p', '--output-format', 'stream-json', '--verbose']);
      expect(argv).toContain('--allowedTools');
      expect(argv[argv.indexOf('--allowedTools') + 1]).toBe('Bash,Read,Edit,Write,Glob,Grep');
      expect(argv).not.toContain('--dangerously-skip-permissions');
      expect(argv).not.toContain('--resume');
      // The heartbeat skill sits in a per-run directory that is gone after the run.
      const skillsRoot = argv[argv.indexOf('--add-dir') + 1]!;
      expect(skillsRoot.startsWith(os.tmpdir())).toBe(true);
      expect(() => readdirSync(skillsRoot)).toThrow();
      if (pty) {
        expect(argv.slice(-2)).toEqual(['--', 'Work on ACME-1.']);
        expect(calls[0]!.isTTY).toBe(true);
      } else {
        expect(calls[0]!.stdin).toBe('Work on ACME-1.');
        expect(argv).not.toContain('--');
      }
      expect(calls[0]!.env).toMatchObject({ SERVICE_API_KEY: 'run-token', SERVICE_RUN_ID: 'run-1', SERVICE_PROMPT: 'Work on ACME-1.' });
      expect(meta).toMatchObject({ sessionId: SESSION, model: 'claude-opus-4-8[1m]', resumed: false });
      // The recorded command line never carries the prompt.
      expect(meta.args).not.toContain('Work on ACME-1.');
    });

    it(`login required, even on exit 0 (${mode})`, async () => {
      for (const exit of [1, 0]) {
        const { result } = await replay('login-required.jsonl', { pty, exit });
        expect(result).toMatchObject({ exitCode: exit, errorCode: 'login_required', errorMessage: 'Invalid API key · Fix external API key', errorHint: LOGIN_HINT, usage: null });
      }
    });
  }

  it('resumes the stored session of the same directory, not of another one', async () => {
    const { result, calls, meta } = await replay('resume.jsonl', { pty: true, sessionParams: { sessionId: 'acd5810d-9a38-4668-9825-a7cea6a8f42d', cwd: tmp } });
    expect(calls[0]!.argv.slice(4, 6)).toEqual(['--resume', 'acd5810d-9a38-4668-9825-a7cea6a8f42d']);
    expect(result.sessionParams).toEqual({ sessionId: 'acd5810d-9a38-4668-9825-a7cea6a8f42d', cwd: tmp });
    expect(meta.resumed).toBe(true);
    const elsewhere = await replay('resume.jsonl', { pty: true, sessionParams: { sessionId: 'acd5810d-9a38-4668-9825-a7cea6a8f42d', cwd: '/somewhere/else' } });
    expect(elsewhere.calls[0]!.argv).not.toContain('--resume');
  });

  it('passes model, extra system prompt, max turns and permission mode', async () => {
    const { calls } = await replay('success-tool-use.jsonl', { pty: true, config: { model: 'sonnet', appendSystemPrompt: 'Be brief.', maxTurns: 7, permissionMode: 'acceptEdits', allowedTools: ['Bash(curl *)'] } });
    const argv = calls[0]!.argv;
    const after = (flag: string) => argv[argv.indexOf(flag) + 1];
    expect([after('--model'), after('--append-system-prompt'), after('--max-turns'), after('--permission-mode'), after('--allowedTools')]).toEqual(['sonnet', 'Be brief.', '7', 'acceptEdits', 'Bash(curl *)']);
  });

  it('classifies rate limits with and without a reset time', async () => {
    const limited = await replay('rate-limit.jsonl', { pty: true, exit: 1 });
    expect(limited.result).toMatchObject({ errorCode: 'rate_limited', rateLimitResetAt: null, errorMessage: expect.stringContaining('(429)') });
    const usage = await replay('usage-limit.jsonl', { pty: true, exit: 1 });
    expect(usage.result).toMatchObject({ errorCode: 'rate_limited', rateLimitResetAt: '2026-11-22T16:00:00.000Z' });
  });

  it('classifies max turns, with the usage and cost of the turns taken', async () => {
    const { result } = await replay('max-turns.jsonl', { pty: true, exit: 1, config: { maxTurns: 2 } });
    expect(result).toMatchObject({ errorCode: 'max_turns', errorMessage: 'Reached maximum number of turns (2)', usage: { inputTokens: 240, outputTokens: 80, costCents: 0.32, costStatus: 'reported' } });
  });

  it('an API error result is a failure even with exit 0', async () => {
    const { result } = await replay('error.jsonl', { pty: false, exit: 0 });
    expect(result).toMatchObject({ exitCode: 0, errorCode: 'cli_error', errorMessage: expect.stringContaining('API Error: 500') });
  });

  it('an unknown session clears the stored session (PTY: the stderr message arrives on the terminal)', async () => {
    for (const pty of [true, false]) {
      const { result } = await replay('unknown-session.jsonl', { pty, exit: 1, stderr: 'unknown-session.stderr.txt', sessionParams: { sessionId: '3f1e6a51-0000-4000-8000-123456789abc', cwd: tmp } });
      expect(result).toMatchObject({ errorCode: 'unknown_session', sessionParams: null });
    }
  });

  it('a clean exit without a result line is a failure', async () => {
    const empty = path.join(tmp, 'empty.txt');
    writeFileSync(empty, 'some noise\n');
    const { result } = await replay(path.relative(FIXTURES, empty), { pty: true });
    expect(result).toMatchObject({ exitCode: 0, errorCode: 'no_result' });
  });
});

describe('vendor_a_local UI parser', () => {
  const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.jsonl'));

  it('replays every fixture to the same entries twice', () => {
    for (const file of files) {
      const lines = splitLines(readFileSync(fixture(file), 'utf8'));
      const once = lines.flatMap((l, i) => parseStdoutLine(l, `t${i}`));
      const twice = lines.flatMap((l, i) => parseStdoutLine(l, `t${i}`));
      expect(twice).toEqual(once);
      expect(once.length).toBeGreaterThan(0);
    }
  });

  it('reads the success fixture into init, text, tool call, tool result and result', () => {
    const entries = splitLines(readFileSync(fixture('success-tool-use.jsonl'), 'utf8')).flatMap((l) => parseStdoutLine(l, 'ts'));
    expect(entries.map((e) => e.kind)).toEqual(['init', 'assistant', 'tool_call', 'tool_result', 'assistant', 'result']);
    expect(entries[0]).toEqual({ kind: 'init', ts: 'ts', model: 'claude-opus-4-8[1m]', sessionId: SESSION });
    expect(entries[2]).toMatchObject({ kind: 'tool_call', name: 'Bash', input: { command: 'echo agent-$SERVICE_AGENT_ID' } });
    expect(entries[3]).toMatchObject({ kind: 'tool_result', content: 'agent-a-1', isError: false });
    expect(entries[5]).toMatchObject({ kind: 'result', isError: false, inputTokens: 1350, outputTokens: 50, cachedTokens: 1000, costUsd: 0.00975 });
    // PTY decoration around a line does not change what it says.
    const line = readFileSync(fixture('success-tool-use.jsonl'), 'utf8').split('\n')[5]!;
    expect(parseStdoutLine(`\x1b[?25l${line}\r`, 'ts')).toEqual(parseStdoutLine(line, 'ts'));
  });

  it('never throws on garbage, and a plain line becomes stdout', () => {
    expect(parseStdoutLine('not json', 'ts')).toEqual([{ kind: 'stdout', ts: 'ts', text: 'not json' }]);
    for (const odd of ['{', '{"type":"assistant","message":{"content":[null,1,{"type":"tool_use"}]}}', '{"type":"result","usage":"x"}', '[]', 'null', '{"type":42}']) {
      expect(() => parseStdoutLine(odd, 'ts')).not.toThrow();
    }
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((v) => JSON.stringify({ type: 'assistant', message: { content: v } }))), (line) => {
        const entries = parseStdoutLine(line, 'ts');
        return Array.isArray(entries) && JSON.stringify(entries) === JSON.stringify(parseStdoutLine(line, 'ts'));
      }),
      { numRuns: 500 },
    );
  });

  it('is self-contained as served: the built file imports nothing and parses like the source', async () => {
    await expectServedParserSelfContained('vendor-a-local', parseStdoutLine);
  });
});

describe('vendor_a_local module', () => {
  it('is registered, and createServerAdapter returns the contract members', () => {
    const adapter = createServerAdapter();
    expect(createBuiltinRegistry().get('vendor_a_local')).toBe(adapter);
    expect(adapter.agentConfigurationDoc).toMatch(/Use when/);
    expect(adapter.agentConfigurationDoc).toMatch(/Do not use when/);
    expect(adapter.sessionCodec!.deserialize({ sessionId: SESSION, cwd: '/w' })).toEqual({ sessionId: SESSION, cwd: '/w' });
    expect(adapter.sessionCodec!.deserialize({ sessionId: '../x' })).toBeNull();
    expect(adapter.sessionCodec!.getDisplayId({ sessionId: SESSION, cwd: null })).toBe(SESSION);
    expect(adapter.configSchema.safeParse({ cwd: 'relative' }).success).toBe(false);
  });

  it('formats lines for run watch', () => {
    const lines = splitLines(readFileSync(fixture('success-tool-use.jsonl'), 'utf8')).map((l) => cliFormatter.formatLine(l, { color: false }));
    expect(lines).toEqual([
      `session ${SESSION} · model claude-opus-4-8[1m]`,
      'Let me check who I am.',
      '→ Bash: echo agent-$SERVICE_AGENT_ID',
      '← agent-a-1',
      'Done. The tool said: agent-a-1',
      '✓ Done. The tool said: agent-a-1 · 1350 in / 50 out / 1000 cached · $0.0097',
    ]);
  });

  it('lists and syncs its skill as ephemeral, and detects the configured model', async () => {
    const ctx = { config: {}, agent: { id: 'a', name: 'A', companyId: 'c' } };
    expect(await vendorALocalAdapter.listSkills!(ctx)).toMatchObject({ adapterType: 'vendor_a_local', supported: true, mode: 'ephemeral', entries: [{ name: 'headcount-heartbeat', installed: true }] });
    expect((await vendorALocalAdapter.syncSkills!(ctx, ['other'])).warnings).toHaveLength(1);
    const configDir = path.join(tmp, 'claude-config');
    rmSync(configDir, { recursive: true, force: true });
    expect(await detectModel({ CLAUDE_CONFIG_DIR: configDir })).toMatchObject({ model: null, source: 'default' });
    await import('node:fs').then((fs) => fs.mkdirSync(configDir, { recursive: true }));
    writeFileSync(path.join(configDir, 'settings.json'), JSON.stringify({ model: 'opus' }));
    expect(await detectModel({ CLAUDE_CONFIG_DIR: configDir })).toMatchObject({ model: 'opus', provider: 'anthropic', source: path.join(configDir, 'settings.json') });
    expect(await detectModel({ CLAUDE_CONFIG_DIR: configDir, ANTHROPIC_MODEL: 'haiku' })).toMatchObject({ model: 'haiku', source: 'env:ANTHROPIC_MODEL' });
  });

  it('testEnvironment detects the installed claude and its version, and warns about an API key over a login', async () => {
    const home = path.join(tmp, 'home');
    const result = await vendorALocalAdapter.testEnvironment({ config: { command: CLAUDE, cwd: path.join(tmp, 'work') }, env: { HOME: home, CLAUDE_CONFIG_DIR: path.join(home, '.claude') } });
    expect(result.status).toBe('pass');
    expect(result.checks.map((c) => c.code)).toEqual(['cwd_created', 'cli_detected', 'cli_version', 'auth_missing']);
    expect(result.checks[2]!.message).toMatch(/\d+\.\d+\.\d+ \(Claude Code\)/);
    await import('node:fs').then((fs) => {
      fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
      fs.writeFileSync(path.join(home, '.claude', '.credentials.json'), '{}');
    });
    const both = await vendorALocalAdapter.testEnvironment({ config: { command: CLAUDE }, env: { HOME: home, CLAUDE_CONFIG_DIR: path.join(home, '.claude'), ANTHROPIC_API_KEY: 'sk-test' } });
    expect(both.checks.find((c) => c.code === 'api_key_overrides_login')).toMatchObject({ level: 'warn' });
    const missing = await vendorALocalAdapter.testEnvironment({ config: { command: 'no-such-claude-xyz' }, env: {} });
    expect(missing).toMatchObject({ status: 'fail' });
    expect(missing.checks.find((c) => c.code === 'cli_not_found')?.hint).toMatch(/npm install -g @anthropic-ai\/claude-code/);
  });
});
