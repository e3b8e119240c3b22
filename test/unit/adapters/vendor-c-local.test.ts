import { agentCli } from '../../helpers/agent-clis.js';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { vendorCLocalAdapter } from '../../../adapters/vendor-c-local/descriptor.js';
import { createServerAdapter } from '../../../adapters/vendor-c-local/index.js';
import { parseStdoutLine } from '../../../adapters/vendor-c-local/ui-parser.js';
import { cliFormatter } from '../../../adapters/vendor-c-local/cli-formatter.js';
import { LOGIN_HINT } from '../../../adapters/vendor-c-local/errors.js';
import { detectModel } from '../../../adapters/vendor-c-local/detect-model.js';
import { createBuiltinRegistry } from '../../../adapters/registry.js';
import { expectServedParserSelfContained } from './served-ui-parser.js';
import { parseFixture, replay as replayWith } from './adapter-replay.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../../adapters/vendor-c-local/fixtures');
const GEMINI = agentCli('gemini');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'hc-vendor-c-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const SESSION = 'd4db367c-530e-4518-9d55-d1a3ebe7befd';
const replay = (file: string, options: Omit<Parameters<typeof replayWith>[2], 'fixtures' | 'tmp'>) =>
  replayWith(vendorCLocalAdapter, file, { fixtures: FIXTURES, tmp, ...options, config: { enableExperimental: true, ...options.config } });

describe('vendor_c_local execute() on recorded Gemini CLI output', () => {
  for (const pty of [true, false]) {
    const mode = pty ? 'PTY' : 'pipes';
    it(`success with tool use: usage priced from the table, session, summary (${mode})`, async () => {
      const { result, calls, meta } = await replay('success-tool-use.jsonl', { pty });
      expect(result).toMatchObject({
        exitCode: 0,
        usage: { provider: 'google', model: 'gemini-2.5-pro', inputTokens: 350, cachedInputTokens: 2300, outputTokens: 50, costStatus: 'priced' },
        sessionParams: { sessionId: SESSION, cwd: tmp },
        summary: 'Done. The tool said: agent-a-1',
      });
      expect(result.usage!.costCents).toBeGreaterThan(0);
      expect(result.errorCode).toBeUndefined();
      const argv = calls[0]!.argv;
      expect(argv.slice(0, 5)).toEqual(['--output-format', 'stream-json', '--approval-mode', 'yolo', '--skip-trust']);
      const skillsRoot = argv.find((a) => a.startsWith('--include-directories='))!.slice('--include-directories='.length);
      expect(() => readdirSync(skillsRoot)).toThrow();
      if (pty) {
        expect(argv.at(-2)).toBe('--prompt');
        expect(argv.at(-1)).toMatch(/^Work on ACME-1\.\n\nSkills for this run .*headcount-heartbeat\/SKILL\.md$/);
      } else expect(calls[0]!.stdin).toMatch(/^Work on ACME-1\./);
      expect(calls[0]!.env).toMatchObject({ SERVICE_API_KEY: 'run-token', GEMINI_CLI_NO_RELAUNCH: 'true' });
      expect(meta).toMatchObject({ sessionId: SESSION, model: 'gemini-2.5-pro', resumed: false });
    });
  }

  it('login required with the hint (the 401 arrives in the result and on stderr)', async () => {
    for (const pty of [true, false]) {
      const { result } = await replay('login-required.jsonl', { pty, exit: 1, stderr: 'login-required.stderr.txt' });
      expect(result).toMatchObject({ errorCode: 'login_required', errorHint: LOGIN_HINT, usage: null });
      expect(result.errorMessage).toContain('API key not valid');
    }
    // Exit 0 with an error result is still a failure.
    const zero = await replay('login-required.jsonl', { pty: true, exit: 0 });
    expect(zero.result).toMatchObject({ exitCode: 0, errorCode: 'login_required' });
  });

  it('resumes the stored session of the same directory', async () => {
    const { result, calls, meta } = await replay('resume.jsonl', { pty: true, sessionParams: { sessionId: SESSION, cwd: tmp } });
    expect(calls[0]!.argv[calls[0]!.argv.indexOf('--resume') + 1]).toBe(SESSION);
    expect(result).toMatchObject({ summary: 'Nothing left to do.', usage: { inputTokens: 40, cachedInputTokens: 2400, outputTokens: 10 }, sessionParams: { sessionId: SESSION } });
    expect(meta.resumed).toBe(true);
    const elsewhere = await replay('resume.jsonl', { pty: true, sessionParams: { sessionId: SESSION, cwd: '/somewhere/else' } });
    expect(elsewhere.calls[0]!.argv).not.toContain('--resume');
  });

  it('an unknown session clears the stored one', async () => {
    const { result } = await replay('unknown-session.jsonl', { pty: true, exit: 42, stderr: 'unknown-session.stderr.txt', sessionParams: { sessionId: '3f1e6a51-0000-4000-8000-123456789abc', cwd: tmp } });
    expect(result).toMatchObject({ exitCode: 42, errorCode: 'unknown_session', sessionParams: null, errorMessage: expect.stringContaining('Error resuming session') });
  });

  it('a quota error is a rate limit with the suggested retry time', async () => {
    const before = Date.now();
    const { result } = await replay('rate-limit.jsonl', { pty: true, exit: 1, stderr: 'rate-limit.stderr.txt' });
    expect(result).toMatchObject({ errorCode: 'rate_limited', errorMessage: expect.stringContaining('Resource has been exhausted') });
    const reset = Date.parse(result.rateLimitResetAt!);
    expect(reset).toBeGreaterThanOrEqual(before + 1000);
    expect(reset).toBeLessThan(Date.now() + 2000);
  });

  it('max turns, a failed status and an unknown model', async () => {
    const dir = path.join(tmp, 'made');
    mkdirSync(dir, { recursive: true });
    const login = readFileSync(path.join(FIXTURES, 'login-required.jsonl'), 'utf8');
    const failedLines = login.trim().split('\n').map((l) => {
      const event = JSON.parse(l);
      if (event.type === 'result') event.error.message = '[API Error: An internal error has occurred.]';
      return JSON.stringify(event);
    });
    writeFileSync(path.join(dir, 'failed.jsonl'), `${failedLines.join('\n')}\n`);
    const failed = await replayWith(vendorCLocalAdapter, 'failed.jsonl', { fixtures: dir, tmp, pty: true, config: { enableExperimental: true } });
    expect(failed.result).toMatchObject({ exitCode: 0, errorCode: 'cli_error', errorMessage: expect.stringContaining('internal error') });
    writeFileSync(path.join(dir, 'max-turns.txt'), 'Reached max session turns for this session. Increase the number of turns by specifying maxSessionTurns in settings.json.\n');
    const turns = await replayWith(vendorCLocalAdapter, 'max-turns.txt', { fixtures: dir, tmp, pty: true, exit: 53, config: { enableExperimental: true } });
    expect(turns.result.errorCode).toBe('max_turns');
    writeFileSync(path.join(dir, 'other.jsonl'), readFileSync(path.join(FIXTURES, 'success-tool-use.jsonl'), 'utf8').replaceAll('gemini-2.5-pro', 'gemini-9-ultra'));
    const unpriced = await replayWith(vendorCLocalAdapter, 'other.jsonl', { fixtures: dir, tmp, pty: true, config: { enableExperimental: true } });
    expect(unpriced.result.usage).toMatchObject({ model: 'gemini-9-ultra', costCents: null, costStatus: 'unpriced' });
  });
});

describe('vendor_c_local UI parser', () => {
  const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.jsonl') && readFileSync(path.join(FIXTURES, f), 'utf8').trim());

  it('replays every fixture to the same entries twice', () => {
    for (const file of files) {
      const once = parseFixture(parseStdoutLine, path.join(FIXTURES, file));
      expect(parseFixture(parseStdoutLine, path.join(FIXTURES, file))).toEqual(once);
      expect(once.length).toBeGreaterThan(0);
    }
  });

  it('reads the success fixture', () => {
    const entries = parseFixture(parseStdoutLine, path.join(FIXTURES, 'success-tool-use.jsonl'), 'ts');
    expect(entries.map((e) => e.kind)).toEqual(['init', 'user', 'assistant', 'tool_call', 'tool_result', 'assistant', 'result']);
    expect(entries[3]).toMatchObject({ kind: 'tool_call', name: 'run_shell_command', input: { command: 'echo agent-$SERVICE_AGENT_ID' } });
    expect(entries[4]).toMatchObject({ kind: 'tool_result', content: 'agent-a-1', isError: false });
    expect(entries[6]).toMatchObject({ kind: 'result', isError: false, inputTokens: 350, outputTokens: 50, cachedTokens: 2300, costUsd: null });
    expect(parseFixture(parseStdoutLine, path.join(FIXTURES, 'rate-limit.jsonl')).at(-1)).toMatchObject({ kind: 'result', isError: true });
  });

  it('never throws on garbage and is self-contained', async () => {
    for (const odd of ['{', '{"type":"tool_result","error":5}', '{"type":"result","stats":"x"}', '[]', 'null']) expect(() => parseStdoutLine(odd, 'ts')).not.toThrow();
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((v) => JSON.stringify({ type: 'result', stats: v, error: v }))), (line) => {
        const entries = parseStdoutLine(line, 'ts');
        return Array.isArray(entries) && JSON.stringify(entries) === JSON.stringify(parseStdoutLine(line, 'ts'));
      }),
      { numRuns: 500 },
    );
    await expectServedParserSelfContained('vendor-c-local', parseStdoutLine);
  });
});

describe('vendor_c_local module', () => {
  it('is registered as experimental, with the contract members', () => {
    const adapter = createServerAdapter();
    expect(createBuiltinRegistry().get('vendor_c_local')).toBe(adapter);
    expect(adapter.experimental).toBe(true);
    expect(adapter.agentConfigurationDoc).toMatch(/\*\*Use when\*\*[\s\S]*\*\*Do not use when\*\*/);
    expect(adapter.agentConfigurationDoc).toContain('enableExperimental');
    expect(adapter.sessionCodec!.deserialize({ sessionId: SESSION, cwd: '/w' })).toEqual({ sessionId: SESSION, cwd: '/w' });
    const lines = readFileSync(path.join(FIXTURES, 'success-tool-use.jsonl'), 'utf8').trim().split('\n').map((l) => cliFormatter.formatLine(l, { color: false }));
    expect(lines[0]).toContain(SESSION);
  });

  it('skills are ephemeral; detectModel reads GEMINI_MODEL and ~/.gemini/settings.json', async () => {
    const ctx = { config: {}, agent: { id: 'a', name: 'A', companyId: 'c' } };
    expect(await vendorCLocalAdapter.syncSkills!(ctx, ['headcount-heartbeat'])).toMatchObject({ adapterType: 'vendor_c_local', mode: 'ephemeral', warnings: [] });
    const home = path.join(tmp, 'ghome');
    mkdirSync(path.join(home, '.gemini'), { recursive: true });
    writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify({ model: { name: 'gemini-2.5-flash' } }));
    expect(await detectModel({ HOME: home })).toMatchObject({ model: 'gemini-2.5-flash', provider: 'google' });
    expect(await detectModel({ HOME: home, GEMINI_MODEL: 'gemini-2.5-pro' })).toMatchObject({ model: 'gemini-2.5-pro', source: 'env:GEMINI_MODEL' });
  });

  it('testEnvironment detects the installed gemini and its version, and warns about the opt-in and a base URL without an auth type', async () => {
    const home = path.join(tmp, 'env-home');
    const result = await vendorCLocalAdapter.testEnvironment({ config: { command: GEMINI, cwd: path.join(tmp, 'work'), enableExperimental: true }, env: { HOME: home, GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:9' } });
    expect(result.status).toBe('pass');
    expect(result.checks.map((c) => c.code)).toEqual(['cwd_created', 'cli_detected', 'cli_version', 'auth_api_key', 'base_url_needs_auth_type']);
    expect(result.checks[2]!.message).toMatch(/\d+\.\d+\.\d+/);
    const noOptIn = await vendorCLocalAdapter.testEnvironment({ config: { command: 'no-such-gemini-xyz' }, env: {} });
    expect(noOptIn.status).toBe('fail');
    expect(noOptIn.checks.map((c) => c.code)).toEqual(expect.arrayContaining(['cli_not_found', 'experimental']));
  }, 60_000);
});
