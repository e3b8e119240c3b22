import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ExecutionContext, ExecutionResult } from '@service/adapter-utils';
import { createServerAdapter } from '../../../adapters/vendor-i-local/src/index.js';
import { parseStdoutLine } from '../../../adapters/vendor-i-local/src/ui-parser.js';
import { formatLine } from '../../../adapters/vendor-i-local/src/cli-formatter.js';
import { AMP_FIXTURES, CLI_REPLAY } from './helpers.js';

const adapter = createServerAdapter();
const work = mkdtempSync(path.join(os.tmpdir(), 'hc-amp-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const fixture = (name: string) => path.join(AMP_FIXTURES, name);
const THREAD = 'T-5f0c2d1e-7a4b-4c8e-9d3f-2b6a1e0c9f47';

interface Run {
  result: ExecutionResult;
  stdout: string;
  meta: Record<string, unknown>;
  invocations: { argv: string[]; isTTY: boolean; env: Record<string, string> }[];
}

/** execute() through a real process: the CLI replay fixture stands in for `amp`. */
async function run(replay: Record<string, string>, config: Record<string, unknown> = {}, sessionParams: Record<string, unknown> | null = null): Promise<Run> {
  const record = path.join(mkdtempSync(path.join(work, 'rec-')), 'calls.jsonl');
  let stdout = '';
  const meta: Record<string, unknown> = {};
  const ctx: ExecutionContext = {
    config: { command: CLI_REPLAY, cwd: path.join(work, 'cwd'), timeoutSec: 20, graceMs: 200, ...config },
    agent: { id: 'agent-1', name: 'Ada', companyId: 'company-1' },
    runtime: {
      apiUrl: 'http://127.0.0.1:9',
      apiKey: 'run-token',
      env: { CLI_REPLAY_WAIT_STDIN: '0', CLI_REPLAY_RECORD: record, CLI_REPLAY_STATE: `${record}.n`, ...replay },
      sessionParams,
      prompt: 'You are Ada. Continue your work.',
    },
    context: { taskId: null, taskTitle: null },
    runId: 'run-1',
    onLog: (_s, chunk) => (stdout += chunk),
    onMeta: (m) => Object.assign(meta, m),
  };
  const result = await adapter.execute(ctx);
  const invocations = readFileSync(record, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  return { result, stdout, meta, invocations };
}

describe('vendor_i_local execute() over recorded Amp output', () => {
  it('success with tool use: usage, session, summary, unpriced without a model; arguments and PTY', async () => {
    const { result, invocations, meta } = await run({ CLI_REPLAY_FILE: fixture('success-tool-use.jsonl') }, { model: 'rush' });
    expect(result).toMatchObject({ exitCode: 0, timedOut: false, sessionParams: { threadId: THREAD }, summary: expect.stringContaining('Checked in as Ada') });
    expect(result.errorCode ?? null).toBeNull();
    // input_tokens includes cache reads and writes: 12783-367-12416 + 13102-221-12783 plain, writes 588, reads 25199.
    expect(result.usage).toEqual({ provider: 'amp', model: 'amp-rush', inputTokens: 98 + 588, outputTokens: 137, cachedInputTokens: 25199, costCents: null, costStatus: 'unpriced' });
    const call = invocations[0]!;
    expect(call.argv).toEqual(['--mode', 'rush', '--dangerously-allow-all', '--execute', 'You are Ada. Continue your work.', '--stream-json']);
    expect(call.isTTY).toBe(true);
    expect(call.env.SERVICE_RUN_ID).toBe('run-1');
    expect(call.env.SERVICE_API_KEY).toBe('run-token');
    expect(meta.sessionId).toBe(THREAD);
  });

  it('prices from the table with priceAsModel, or from the model Amp names', async () => {
    const priced = await run({ CLI_REPLAY_FILE: fixture('success-tool-use.jsonl') }, { priceAsModel: 'claude-sonnet-4-5' });
    // Sonnet 4.5: $3 in, $15 out, $0.30 cache read, $3.75 cache write per million tokens.
    const usd = 98 * 3e-6 + 137 * 15e-6 + 25199 * 0.3e-6 + 588 * 3.75e-6;
    expect(priced.result.usage).toMatchObject({ model: 'claude-sonnet-4-5', costStatus: 'priced' });
    expect(priced.result.usage!.costCents).toBeCloseTo(usd * 100, 5);
    const named = await run({ CLI_REPLAY_FILE: fixture('max-turns.jsonl') });
    expect(named.result.usage).toMatchObject({ model: 'claude-sonnet-4-5-20250929', costStatus: 'priced', inputTokens: 10000, cachedInputTokens: 10000, outputTokens: 500 });
  });

  it('resumes the stored thread with `threads continue`', async () => {
    const { result, invocations } = await run({ CLI_REPLAY_FILE: fixture('resume.jsonl') }, {}, { threadId: THREAD });
    expect(invocations[0]!.argv.slice(0, 3)).toEqual(['threads', 'continue', THREAD]);
    expect(result).toMatchObject({ exitCode: 0, sessionParams: { threadId: THREAD }, summary: 'Continuing from the last heartbeat: still nothing assigned.' });
  });

  it('an unknown thread is retried once on a fresh thread', async () => {
    const { result, invocations, stdout } = await run(
      { CLI_REPLAY_SEQUENCE: [fixture('unknown-thread.txt'), fixture('success-tool-use.jsonl')].join(path.delimiter), CLI_REPLAY_EXIT: `1${path.delimiter}0` },
      {},
      { threadId: 'T-00000000-dead-4bad-8bad-000000000000' },
    );
    expect(invocations).toHaveLength(2);
    expect(invocations[0]!.argv.slice(0, 2)).toEqual(['threads', 'continue']);
    expect(invocations[1]!.argv[0]).toBe('--dangerously-allow-all');
    expect(stdout).toContain('retrying once on a fresh thread');
    expect(result).toMatchObject({ exitCode: 0, sessionParams: { threadId: THREAD } });
    expect(result.errorCode ?? null).toBeNull();
  });

  it('an unknown thread that fails again is not retried twice, and the stored thread is cleared', async () => {
    const { result, invocations } = await run({ CLI_REPLAY_FILE: fixture('unknown-thread.txt'), CLI_REPLAY_EXIT: '1' }, {}, { threadId: 'T-gone' });
    expect(invocations).toHaveLength(2);
    expect(result).toMatchObject({ exitCode: 1, errorCode: 'unknown_session', sessionParams: null });
  });

  it('classifies errors: CLI error result, login required, rate limit with reset, max turns', async () => {
    const error = await run({ CLI_REPLAY_FILE: fixture('error.jsonl'), CLI_REPLAY_EXIT: '0' });
    // Exit 0 with an error result is a failure.
    expect(error.result).toMatchObject({ exitCode: 0, errorCode: 'cli_error', errorMessage: 'Tool execution was denied and the agent could not continue' });
    expect(error.result.usage).toMatchObject({ inputTokens: 9120, outputTokens: 22, cachedInputTokens: 0 });

    const login = await run({ CLI_REPLAY_FILE: fixture('login-required.txt'), CLI_REPLAY_EXIT: '1' });
    expect(login.result).toMatchObject({ exitCode: 1, errorCode: 'login_required', errorHint: expect.stringContaining('amp login') });
    expect(login.result.usage).toBeUndefined();

    const rate = await run({ CLI_REPLAY_FILE: fixture('rate-limit.jsonl'), CLI_REPLAY_EXIT: '1' });
    expect(rate.result).toMatchObject({ errorCode: 'rate_limited', rateLimitResetAt: '2026-11-22T18:00:00.000Z' });

    const turns = await run({ CLI_REPLAY_FILE: fixture('max-turns.jsonl') });
    expect(turns.result).toMatchObject({ exitCode: 0, errorCode: 'max_turns', errorMessage: 'Maximum number of turns reached' });
  });

  it('exit 0 without a result line is a failure; pipes work when pty is off', async () => {
    const cut = path.join(work, 'cut.jsonl');
    writeFileSync(cut, readFileSync(fixture('success-tool-use.jsonl'), 'utf8').split('\n').slice(0, 3).join('\n') + '\n');
    const { result, invocations } = await run({ CLI_REPLAY_FILE: cut }, { pty: false });
    expect(invocations[0]!.isTTY).toBe(false);
    expect(result).toMatchObject({ exitCode: 0, errorCode: 'missing_result', sessionParams: { threadId: THREAD } });
  });

  it('a missing CLI fails the run with cli_not_found', async () => {
    await expect(run({}, { command: path.join(work, 'no-such-amp') })).rejects.toMatchObject({ code: 'cli_not_found' });
  });
});

describe('vendor_i_local testEnvironment()', () => {
  it('passes with the CLI found and its version, warns about auth', async () => {
    const res = await adapter.testEnvironment({ config: { command: CLI_REPLAY, cwd: path.join(work, 'env-cwd') }, env: { CLI_REPLAY_VERSION: '0.0.1763000000-g1a2b3c', HOME: work, XDG_DATA_HOME: path.join(work, 'xdg') } });
    expect(res.adapterType).toBe('vendor_i_local');
    expect(res.status).toBe('pass');
    const codes = res.checks.map((c) => c.code);
    expect(codes).toEqual(expect.arrayContaining(['cwd_created', 'cli_detected', 'cli_version', 'auth_not_found']));
    expect(res.checks.find((c) => c.code === 'cli_version')!.message).toContain('0.0.1763000000-g1a2b3c');
    expect(Date.parse(res.testedAt)).not.toBeNaN();
  });

  it('fails on a relative cwd or a missing CLI; an API key over a stored login warns', async () => {
    const rel = await adapter.testEnvironment({ config: { command: CLI_REPLAY, cwd: 'relative/dir' }, env: {} });
    expect(rel.status).toBe('fail');
    expect(rel.checks.find((c) => c.level === 'error')!.code).toBe('invalid_cwd');
    const missing = await adapter.testEnvironment({ config: { command: 'amp-not-installed-here', cwd: work }, env: {} });
    expect(missing.status).toBe('fail');
    expect(missing.checks.find((c) => c.code === 'cli_not_found')!.level).toBe('error');
    const xdg = path.join(work, 'xdg2');
    rmSync(xdg, { recursive: true, force: true });
    const { mkdirSync } = await import('node:fs');
    mkdirSync(path.join(xdg, 'amp'), { recursive: true });
    writeFileSync(path.join(xdg, 'amp', 'secrets.json'), '{}');
    const both = await adapter.testEnvironment({ config: { command: CLI_REPLAY, cwd: work }, env: { AMP_API_KEY: 'sgamp_x', XDG_DATA_HOME: xdg, CLI_REPLAY_VERSION: '1' } });
    expect(both.status).toBe('pass');
    expect(both.checks.find((c) => c.code === 'api_key_overrides_login')!.level).toBe('warn');
  });

  it('the hello probe runs one prompt and reports a login error as an error', async () => {
    const ok = await adapter.testEnvironment({ config: { command: CLI_REPLAY, cwd: work, helloProbe: true }, env: { CLI_REPLAY_FILE: fixture('resume.jsonl'), CLI_REPLAY_WAIT_STDIN: '0', CLI_REPLAY_VERSION: '1' } });
    expect(ok.checks.find((c) => c.code === 'hello_probe_ok')).toBeTruthy();
    const login = await adapter.testEnvironment({ config: { command: CLI_REPLAY, cwd: work, helloProbe: true }, env: { CLI_REPLAY_FILE: fixture('login-required.txt'), CLI_REPLAY_EXIT: '1', CLI_REPLAY_WAIT_STDIN: '0', CLI_REPLAY_VERSION: '1' } });
    expect(login.status).toBe('fail');
    expect(login.checks.find((c) => c.code === 'login_required')).toMatchObject({ level: 'error', hint: expect.stringContaining('amp login') });
  });
});

describe('vendor_i_local UI parser and CLI formatter', () => {
  const files = ['success-tool-use.jsonl', 'resume.jsonl', 'error.jsonl', 'login-required.txt', 'rate-limit.jsonl', 'max-turns.jsonl', 'unknown-thread.txt'];

  it('replays each fixture to the same entries twice', () => {
    for (const file of files) {
      const lines = readFileSync(fixture(file), 'utf8').split('\n');
      const once = lines.flatMap((l) => parseStdoutLine(l, '2026-11-22T00:00:00.000Z'));
      const twice = lines.flatMap((l) => parseStdoutLine(l, '2026-11-22T00:00:00.000Z'));
      expect(twice).toEqual(once);
      expect(once.length).toBeGreaterThan(0);
    }
  });

  it('maps the stream to transcript entries', () => {
    const entries = readFileSync(fixture('success-tool-use.jsonl'), 'utf8').split('\n').flatMap((l) => parseStdoutLine(l, 'T'));
    expect(entries.map((e) => e.kind)).toEqual(['init', 'user', 'assistant', 'tool_call', 'tool_result', 'assistant', 'result']);
    expect(entries[0]).toEqual({ kind: 'init', ts: 'T', model: null, sessionId: THREAD });
    expect(entries[3]).toMatchObject({ kind: 'tool_call', name: 'Bash', id: 'toolu_01FqkZ9mXb3' });
    expect(entries[4]).toMatchObject({ kind: 'tool_result', toolUseId: 'toolu_01FqkZ9mXb3', isError: false });
    expect(entries[6]).toMatchObject({ kind: 'result', isError: false, subtype: 'success' });
    const rate = readFileSync(fixture('rate-limit.jsonl'), 'utf8').split('\n').flatMap((l) => parseStdoutLine(l, 'T'));
    expect(rate.at(-1)).toMatchObject({ kind: 'result', isError: true, errors: [expect.stringContaining('Rate limit')] });
  });

  it('never throws on garbage', () => {
    const garbage = ['', '{', '{"type":', 'null', '[1,2]', '{"type":"assistant","message":null}', '{"type":"user","message":{"content":[null,1,"x"]}}', '\u001b[31m{"type":"result"}\u001b[0m', '\u0000\u0007', '{"type":"result","usage":"lots"}', 'x'.repeat(100_000)];
    for (const line of garbage) {
      expect(() => parseStdoutLine(line, 'T')).not.toThrow();
      expect(() => formatLine(line, { color: true })).not.toThrow();
    }
    expect(parseStdoutLine('plain words', 'T')).toEqual([{ kind: 'stdout', ts: 'T', text: 'plain words' }]);
    expect(formatLine(readFileSync(fixture('success-tool-use.jsonl'), 'utf8').split('\n')[2]!, { color: false })).toMatch(/^I'll check my assigned issues first.\n→ Bash/);
  });
});
