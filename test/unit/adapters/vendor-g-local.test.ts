import { agentCli } from '../../helpers/agent-clis.js';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { vendorGLocalAdapter } from '../../../adapters/vendor-g-local/descriptor.js';
import { createServerAdapter } from '../../../adapters/vendor-g-local/index.js';
import { parseStdoutLine } from '../../../adapters/vendor-g-local/ui-parser.js';
import { cliFormatter } from '../../../adapters/vendor-g-local/cli-formatter.js';
import { LOGIN_HINT } from '../../../adapters/vendor-g-local/errors.js';
import { detectModel } from '../../../adapters/vendor-g-local/detect-model.js';
import { promptArg } from '../../../adapters/vendor-g-local/execute.js';
import { createBuiltinRegistry } from '../../../adapters/registry.js';
import { expectServedParserSelfContained } from './served-ui-parser.js';
import { parseFixture, replay as replayWith } from './adapter-replay.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../../adapters/vendor-g-local/fixtures');
const QWEN = agentCli('qwen');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'hc-vendor-g-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const SESSION = 'bb37b5fe-31b3-46a2-b4e5-5c4ecfd33bbc';
const replay = (file: string, options: Omit<Parameters<typeof replayWith>[2], 'fixtures' | 'tmp'>) => replayWith(vendorGLocalAdapter, file, { fixtures: FIXTURES, tmp, ...options });

describe('vendor_g_local execute() on recorded Qwen Code output', () => {
  for (const pty of [true, false]) {
    const mode = pty ? 'PTY' : 'pipes';
    it(`success with tool use: usage priced from the table, session, summary (${mode})`, async () => {
      const { result, calls, meta } = await replay('success-tool-use.jsonl', { pty });
      // 2650 prompt tokens of which 2300 cached, 50 out; qwen3-coder-plus from the price table.
      expect(result).toMatchObject({
        exitCode: 0,
        usage: { provider: 'qwen', model: 'qwen3-coder-plus', inputTokens: 350, cachedInputTokens: 2300, outputTokens: 50, costStatus: 'priced' },
        sessionParams: { sessionId: SESSION, cwd: tmp, totals: { input: 2650, cached: 2300, output: 50 } },
        summary: 'Done. The tool said: agent-a-1',
      });
      expect(result.usage!.costCents).toBeGreaterThan(0);
      expect(result.errorCode).toBeUndefined();
      const argv = calls[0]!.argv;
      expect(argv.slice(pty ? 1 : 0, pty ? 5 : 4)).toEqual(['--output-format', 'stream-json', '--approval-mode', 'yolo']);
      expect(argv).not.toContain('--resume');
      const skillsRoot = argv.find((a) => a.startsWith('--include-directories='))!.slice('--include-directories='.length);
      expect(() => readdirSync(skillsRoot)).toThrow();
      if (pty) {
        expect(argv).not.toContain('--');
        expect(argv[0]).toMatch(/^Work on ACME-1\.\n\nSkills for this run .*headcount-heartbeat\/SKILL\.md$/);
      } else expect(calls[0]!.stdin).toMatch(/^Work on ACME-1\./);
      expect(calls[0]!.env).toMatchObject({ SERVICE_API_KEY: 'run-token', SERVICE_RUN_ID: 'run-1', NO_UPDATE_NOTIFIER: '1' });
      expect(meta).toMatchObject({ sessionId: SESSION, model: 'qwen3-coder-plus', resumed: false });
    });

    it(`an [API Error: 401] answer is login required, though Qwen exits 0 (${mode})`, async () => {
      const { result } = await replay('login-required.jsonl', { pty });
      expect(result).toMatchObject({ exitCode: 0, errorCode: 'login_required', errorHint: LOGIN_HINT, usage: null, summary: null });
      expect(result.errorMessage).toContain('401 Incorrect API key');
    });
  }

  it('resumes the stored session and records only this heartbeat\'s tokens', async () => {
    const stored = { sessionId: SESSION, cwd: tmp, totals: { input: 2650, cached: 2300, output: 50 } };
    const { result, calls, meta } = await replay('resume.jsonl', { pty: true, sessionParams: stored });
    const argv = calls[0]!.argv;
    expect(argv[argv.indexOf('--resume') + 1]).toBe(SESSION);
    // The resumed result reports the whole session: 5210/4700/100.
    expect(result).toMatchObject({ summary: 'Nothing left to do.', usage: { inputTokens: 2560 - 2400, cachedInputTokens: 2400, outputTokens: 50 }, sessionParams: { sessionId: SESSION, totals: { input: 5210, cached: 4700, output: 100 } } });
    expect(meta.resumed).toBe(true);
    const elsewhere = await replay('resume.jsonl', { pty: true, sessionParams: { ...stored, cwd: '/somewhere/else' } });
    expect(elsewhere.calls[0]!.argv).not.toContain('--resume');
  });

  it('an unknown session clears the stored one', async () => {
    for (const pty of [true, false]) {
      const { result } = await replay('unknown-session.jsonl', { pty, exit: 1, stderr: 'unknown-session.stderr.txt', sessionParams: { sessionId: '3f1e6a51-0000-4000-8000-123456789abc', cwd: tmp } });
      expect(result).toMatchObject({ errorCode: 'unknown_session', sessionParams: null, errorMessage: expect.stringContaining('No saved session found') });
    }
  });

  it('max turns: the turns taken are kept, the run fails', async () => {
    const { result, calls } = await replay('max-turns.jsonl', { pty: true, exit: 53, stderr: 'max-turns.stderr.txt', config: { maxTurns: 2 } });
    expect(calls[0]!.argv).toEqual(expect.arrayContaining(['--max-session-turns', '2']));
    expect(result).toMatchObject({ exitCode: 53, errorCode: 'max_turns', errorMessage: expect.stringContaining('Reached max session turns'), sessionParams: { sessionId: '787b455b-9605-48e0-81e6-650141f2bd55' } });
  });

  it('rate limits and other API errors are failures, an unknown model is unpriced', async () => {
    const dir = path.join(tmp, 'made');
    mkdirSync(dir, { recursive: true });
    for (const [name, text] of [['rate.jsonl', '[API Error: 429 Rate limit reached for qwen3-coder-plus. Please try again in 20s.]'], ['error.jsonl', '[API Error: 500 The server had an error while processing your request.]']] as const) {
      const login = readFileSync(path.join(FIXTURES, 'login-required.jsonl'), 'utf8');
      writeFileSync(path.join(dir, name), login.replaceAll('[API Error: 401 Incorrect API key provided: sk-test.]', text));
    }
    const limited = await replayWith(vendorGLocalAdapter, 'rate.jsonl', { fixtures: dir, tmp, pty: true });
    expect(limited.result.errorCode).toBe('rate_limited');
    expect(Date.parse(limited.result.rateLimitResetAt!) - Date.now()).toBeLessThanOrEqual(20_000);
    const failed = await replayWith(vendorGLocalAdapter, 'error.jsonl', { fixtures: dir, tmp, pty: true });
    expect(failed.result).toMatchObject({ exitCode: 0, errorCode: 'cli_error', errorMessage: expect.stringContaining('500') });
    const fixturesRate = readdirSync(FIXTURES).find((f) => f === 'rate-limit.jsonl');
    if (fixturesRate) {
      const real = await replay('rate-limit.jsonl', { pty: true });
      expect(real.result.errorCode).toBe('rate_limited');
    }
    writeFileSync(path.join(dir, 'other-model.jsonl'), readFileSync(path.join(FIXTURES, 'success-tool-use.jsonl'), 'utf8').replaceAll('qwen3-coder-plus', 'my-local-model'));
    const unpriced = await replayWith(vendorGLocalAdapter, 'other-model.jsonl', { fixtures: dir, tmp, pty: true });
    expect(unpriced.result.usage).toMatchObject({ model: 'my-local-model', costCents: null, costStatus: 'unpriced' });
  });
});

describe('vendor_g_local UI parser', () => {
  const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.jsonl') && readFileSync(path.join(FIXTURES, f), 'utf8').trim());

  it('replays every fixture to the same entries twice', () => {
    for (const file of files) {
      const once = parseFixture(parseStdoutLine, path.join(FIXTURES, file));
      expect(parseFixture(parseStdoutLine, path.join(FIXTURES, file))).toEqual(once);
      expect(once.length).toBeGreaterThan(0);
    }
  });

  it('reads the success fixture; an API error answer is an error result', () => {
    const entries = parseFixture(parseStdoutLine, path.join(FIXTURES, 'success-tool-use.jsonl'), 'ts');
    expect(entries.map((e) => e.kind)).toEqual(['init', 'assistant', 'tool_call', 'tool_result', 'assistant', 'result']);
    expect(entries[2]).toMatchObject({ kind: 'tool_call', name: 'run_shell_command', input: { command: 'echo agent-$SERVICE_AGENT_ID' } });
    expect(entries[3]).toMatchObject({ kind: 'tool_result', content: 'agent-a-1', isError: false });
    expect(entries[5]).toMatchObject({ kind: 'result', isError: false, inputTokens: 350, outputTokens: 50, cachedTokens: 2300 });
    expect(parseFixture(parseStdoutLine, path.join(FIXTURES, 'login-required.jsonl')).at(-1)).toMatchObject({ kind: 'result', isError: true });
  });

  it('never throws on garbage and is self-contained', async () => {
    for (const odd of ['{', '{"type":"assistant","message":{"content":[null,1,{"type":"tool_use"}]}}', '{"type":"result","usage":"x","error":7}', '[]', 'null']) {
      expect(() => parseStdoutLine(odd, 'ts')).not.toThrow();
    }
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((v) => JSON.stringify({ type: 'result', result: v, usage: v }))), (line) => {
        const entries = parseStdoutLine(line, 'ts');
        return Array.isArray(entries) && JSON.stringify(entries) === JSON.stringify(parseStdoutLine(line, 'ts'));
      }),
      { numRuns: 500 },
    );
    await expectServedParserSelfContained('vendor-g-local', parseStdoutLine);
  });
});

describe('vendor_g_local module', () => {
  it('is registered with the contract members and formats lines for run watch', () => {
    const adapter = createServerAdapter();
    expect(createBuiltinRegistry().get('vendor_g_local')).toBe(adapter);
    expect(adapter.agentConfigurationDoc).toMatch(/\*\*Use when\*\*[\s\S]*\*\*Do not use when\*\*/);
    expect(adapter.agentConfigurationDoc).toContain('@qwen-code/qwen-code');
    expect(adapter.sessionCodec!.deserialize({ sessionId: SESSION })).toEqual({ sessionId: SESSION, cwd: null, totals: null });
    expect(adapter.sessionCodec!.deserialize({ sessionId: '../x' })).toBeNull();
    expect(adapter.configSchema.safeParse({ approvalMode: 'always' }).success).toBe(false);
    const lines = readFileSync(path.join(FIXTURES, 'success-tool-use.jsonl'), 'utf8').trim().split('\n').map((l) => cliFormatter.formatLine(l, { color: false }));
    expect(lines[0]).toContain(SESSION);
    expect(lines).toContain('Let me check who I am.');
  });

  it('a prompt that looks like an option is passed as --prompt=', () => {
    expect(promptArg('Work on it')).toBe('Work on it');
    expect(promptArg('--help me')).toBe('--prompt=--help me');
  });

  it('skills are ephemeral; detectModel reads OPENAI_MODEL and ~/.qwen/settings.json', async () => {
    const ctx = { config: {}, agent: { id: 'a', name: 'A', companyId: 'c' } };
    expect(await vendorGLocalAdapter.listSkills!(ctx)).toMatchObject({ adapterType: 'vendor_g_local', mode: 'ephemeral', entries: [{ name: 'headcount-heartbeat', installed: true }] });
    const home = path.join(tmp, 'qhome');
    expect(await detectModel({ HOME: home })).toMatchObject({ model: null, source: 'default' });
    mkdirSync(path.join(home, '.qwen'), { recursive: true });
    writeFileSync(path.join(home, '.qwen', 'settings.json'), JSON.stringify({ model: { name: 'qwen3-coder-flash' } }));
    expect(await detectModel({ HOME: home })).toMatchObject({ model: 'qwen3-coder-flash', source: path.join(home, '.qwen', 'settings.json') });
    expect(await detectModel({ HOME: home, OPENAI_MODEL: 'gpt-oss', OPENAI_BASE_URL: 'http://x' })).toMatchObject({ model: 'gpt-oss', provider: 'openai-compatible' });
  });

  it('testEnvironment detects the installed qwen and its version', async () => {
    const home = path.join(tmp, 'env-home');
    const result = await vendorGLocalAdapter.testEnvironment({ config: { command: QWEN, cwd: path.join(tmp, 'work') }, env: { HOME: home, OPENAI_API_KEY: '' } });
    expect(result.status).toBe('pass');
    expect(result.checks.map((c) => c.code)).toEqual(['cwd_created', 'cli_detected', 'cli_version', 'auth_missing']);
    expect(result.checks[2]!.message).toMatch(/\d+\.\d+\.\d+/);
    const missing = await vendorGLocalAdapter.testEnvironment({ config: { command: 'no-such-qwen-xyz' }, env: {} });
    expect(missing.status).toBe('fail');
    expect(missing.checks.find((c) => c.code === 'cli_not_found')?.hint).toMatch(/@qwen-code\/qwen-code/);
  }, 60_000);
});
