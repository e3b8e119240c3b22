import { agentCli } from '../../helpers/agent-clis.js';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { vendorDLocalAdapter } from '../../../adapters/vendor-d-local/descriptor.js';
import { createServerAdapter } from '../../../adapters/vendor-d-local/index.js';
import { parseStdoutLine } from '../../../adapters/vendor-d-local/ui-parser.js';
import { cliFormatter } from '../../../adapters/vendor-d-local/cli-formatter.js';
import { LOGIN_HINT } from '../../../adapters/vendor-d-local/errors.js';
import { detectModel } from '../../../adapters/vendor-d-local/detect-model.js';
import { listOpenCodeModels } from '../../../adapters/vendor-d-local/list-models.js';
import { createBuiltinRegistry } from '../../../adapters/registry.js';
import { REPLAY, parseFixture, replay as replayWith } from './adapter-replay.js';
import { expectServedParserSelfContained } from './served-ui-parser.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../../adapters/vendor-d-local/fixtures');
const OPENCODE = agentCli('opencode');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'hc-vendor-d-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const SESSION = 'ses_dfc4309eaffer1JI7gPDsJ0aEs';
const MODEL = 'scripted/qwen3-coder-plus';
const replay = (file: string, options: Omit<Parameters<typeof replayWith>[2], 'fixtures' | 'tmp'>) =>
  replayWith(vendorDLocalAdapter, file, { fixtures: FIXTURES, tmp, ...options, config: { model: MODEL, ...options.config } });

describe('vendor_d_local execute() on recorded OpenCode output', () => {
  for (const pty of [true, false]) {
    const mode = pty ? 'PTY' : 'pipes';
    it(`success with tool use: summed step usage, priced (OpenCode's cost 0 means no price), session, summary (${mode})`, async () => {
      const { result, calls, meta } = await replay('success-tool-use.jsonl', { pty });
      expect(result).toMatchObject({
        exitCode: 0,
        usage: { provider: 'scripted', model: MODEL, inputTokens: 350, cachedInputTokens: 2300, outputTokens: 50, costStatus: 'priced' },
        sessionParams: { sessionId: SESSION, cwd: tmp },
        summary: 'Done. The tool said: agent-a-1',
      });
      expect(result.errorCode).toBeUndefined();
      const argv = calls[0]!.argv;
      expect(argv.slice(0, 5)).toEqual(['run', '--format', 'json', '--model', MODEL]);
      expect(argv.at(-2)).toBe('--');
      expect(argv.at(-1)).toMatch(/^Work on ACME-1\.\n\nSkills for this run .*headcount-heartbeat\/SKILL\.md$/);
      expect(calls[0]!.isTTY).toBe(pty);
      expect(calls[0]!.env).toMatchObject({ SERVICE_API_KEY: 'run-token', OPENCODE_DISABLE_AUTOUPDATE: '1' });
      expect(meta).toMatchObject({ sessionId: SESSION, model: MODEL, resumed: false });
    });

    it(`a 401 error event is login required (${mode})`, async () => {
      const { result } = await replay('login-required.jsonl', { pty, exit: 1 });
      expect(result).toMatchObject({ exitCode: 1, errorCode: 'login_required', errorHint: LOGIN_HINT, usage: null, errorMessage: expect.stringContaining('Incorrect API key') });
    });
  }

  it('continues the stored session of the same directory', async () => {
    const { result, calls, meta } = await replay('resume.jsonl', { pty: true, sessionParams: { sessionId: SESSION, cwd: tmp } });
    expect(calls[0]!.argv.slice(3, 5)).toEqual(['--session', SESSION]);
    expect(result).toMatchObject({ summary: 'Nothing left to do.', usage: { inputTokens: 40, cachedInputTokens: 2400, outputTokens: 10 }, sessionParams: { sessionId: SESSION } });
    expect(meta.resumed).toBe(true);
    const elsewhere = await replay('resume.jsonl', { pty: true, sessionParams: { sessionId: SESSION, cwd: '/somewhere/else' } });
    expect(elsewhere.calls[0]!.argv).not.toContain('--session');
  });

  it('an unknown session clears the stored one', async () => {
    for (const pty of [true, false]) {
      const { result } = await replay('unknown-session.jsonl', { pty, exit: 1, stderr: 'unknown-session.stderr.txt', sessionParams: { sessionId: 'ses_00000000000000000000000000', cwd: tmp } });
      expect(result).toMatchObject({ errorCode: 'unknown_session', sessionParams: null, errorMessage: expect.stringContaining('Session not found') });
    }
  });

  it('a 429 error event is a rate limit with the reset it names; other errors fail; a reported cost is kept', async () => {
    const before = Date.now();
    const { result } = await replay('rate-limit.jsonl', { pty: true, exit: 1 });
    expect(result).toMatchObject({ errorCode: 'rate_limited', errorMessage: expect.stringContaining('Rate limit reached') });
    expect(Date.parse(result.rateLimitResetAt!)).toBeGreaterThanOrEqual(before + 20_000 - 1000);
    const dir = path.join(tmp, 'made');
    mkdirSync(dir, { recursive: true });
    const edit = (name: string, from: string, f: (event: any) => void) =>
      writeFileSync(path.join(dir, name), `${readFileSync(path.join(FIXTURES, from), 'utf8').trim().split('\n').map((l) => { const e = JSON.parse(l); f(e); return JSON.stringify(e); }).join('\n')}\n`);
    edit('error.jsonl', 'login-required.jsonl', (e) => Object.assign(e.error.data, { statusCode: 500, message: 'The server had an error while processing your request.' }));
    const failed = await replayWith(vendorDLocalAdapter, 'error.jsonl', { fixtures: dir, tmp, pty: true, exit: 0 });
    expect(failed.result).toMatchObject({ exitCode: 0, errorCode: 'cli_error', errorMessage: 'APIError: The server had an error while processing your request.' });
    edit('costed.jsonl', 'success-tool-use.jsonl', (e) => { if (e.type === 'step_finish') e.part.cost = 0.01; });
    const costed = await replayWith(vendorDLocalAdapter, 'costed.jsonl', { fixtures: dir, tmp, pty: true, config: { model: 'mine/unknown-model' } });
    expect(costed.result.usage).toMatchObject({ provider: 'mine', costCents: 2, costStatus: 'reported' });
    const unpriced = await replayWith(vendorDLocalAdapter, 'success-tool-use.jsonl', { fixtures: FIXTURES, tmp, pty: true, config: { model: 'mine/unknown-model' } });
    expect(unpriced.result.usage).toMatchObject({ costCents: null, costStatus: 'unpriced' });
  });
});

describe('vendor_d_local UI parser', () => {
  const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.jsonl') && readFileSync(path.join(FIXTURES, f), 'utf8').trim());

  it('replays every fixture to the same entries twice', () => {
    for (const file of files) {
      const once = parseFixture(parseStdoutLine, path.join(FIXTURES, file));
      expect(parseFixture(parseStdoutLine, path.join(FIXTURES, file))).toEqual(once);
      expect(once.length).toBeGreaterThan(0);
    }
  });

  it('reads the success fixture into steps, text, the bash call and its output', () => {
    const entries = parseFixture(parseStdoutLine, path.join(FIXTURES, 'success-tool-use.jsonl'), 'ts');
    expect(entries.map((e) => e.kind)).toEqual(['init', 'assistant', 'tool_call', 'tool_result', 'result', 'init', 'assistant', 'result']);
    expect(entries[2]).toMatchObject({ kind: 'tool_call', name: 'bash', input: { command: 'echo agent-$SERVICE_AGENT_ID' } });
    expect(entries[3]).toMatchObject({ kind: 'tool_result', content: 'agent-a-1\n', isError: false });
    expect(entries[4]).toMatchObject({ kind: 'result', inputTokens: 300, outputTokens: 30, cachedTokens: 1000, costUsd: null });
    expect(parseFixture(parseStdoutLine, path.join(FIXTURES, 'login-required.jsonl')).at(-1)).toMatchObject({ kind: 'result', isError: true });
  });

  it('never throws on garbage and is self-contained', async () => {
    for (const odd of ['{', '{"type":"tool_use","part":{"state":7}}', '{"type":"step_finish","part":{"tokens":"x"}}', '{"type":"error","error":null}', '[]']) expect(() => parseStdoutLine(odd, 'ts')).not.toThrow();
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((v) => JSON.stringify({ type: 'tool_use', part: v }))), (line) => {
        const entries = parseStdoutLine(line, 'ts');
        return Array.isArray(entries) && JSON.stringify(entries) === JSON.stringify(parseStdoutLine(line, 'ts'));
      }),
      { numRuns: 500 },
    );
    await expectServedParserSelfContained('vendor-d-local', parseStdoutLine);
  });
});

describe('vendor_d_local module', () => {
  it('is registered with no static models, and formats lines for run watch', () => {
    const adapter = createServerAdapter();
    expect(createBuiltinRegistry().get('vendor_d_local')).toBe(adapter);
    expect(adapter.models).toEqual([]);
    expect(adapter.agentConfigurationDoc).toMatch(/\*\*Use when\*\*[\s\S]*\*\*Do not use when\*\*/);
    expect(adapter.configSchema.safeParse({ model: 'no-provider' }).success).toBe(false);
    expect(adapter.sessionCodec!.deserialize({ sessionId: SESSION })).toEqual({ sessionId: SESSION, cwd: null });
    expect(adapter.sessionCodec!.deserialize({ sessionId: 'x; rm' })).toBeNull();
    const lines = readFileSync(path.join(FIXTURES, 'success-tool-use.jsonl'), 'utf8').trim().split('\n').map((l) => cliFormatter.formatLine(l, { color: false }));
    expect(lines).toContain('Let me check who I am.');
  });

  it('models come only from `opencode models`: its lines, or nothing when it is unavailable', async () => {
    const list = path.join(tmp, 'models-out.txt');
    writeFileSync(list, readFileSync(path.join(FIXTURES, 'models.txt'), 'utf8'));
    const models = await listOpenCodeModels({ command: REPLAY, env: { CLI_REPLAY_FILE: list, CLI_REPLAY_WAIT_STDIN: '0' } });
    expect(models.map((m) => m.id)).toContain('scripted/qwen3-coder-plus');
    expect(models.every((m) => m.id.includes('/'))).toBe(true);
    expect(await listOpenCodeModels({ command: 'no-such-opencode-xyz' })).toEqual([]);
    expect(await listOpenCodeModels({ command: REPLAY, env: { CLI_REPLAY_FILE: list, CLI_REPLAY_WAIT_STDIN: '0', CLI_REPLAY_EXIT: '1' } })).toEqual([]);
  });

  it('skills are ephemeral; detectModel reads the OpenCode configuration', async () => {
    const ctx = { config: {}, agent: { id: 'a', name: 'A', companyId: 'c' } };
    expect(await vendorDLocalAdapter.listSkills!(ctx)).toMatchObject({ adapterType: 'vendor_d_local', mode: 'ephemeral' });
    const xdg = path.join(tmp, 'xdg');
    mkdirSync(path.join(xdg, 'opencode'), { recursive: true });
    expect(await detectModel({ XDG_CONFIG_HOME: xdg })).toMatchObject({ model: null, candidates: [] });
    writeFileSync(path.join(xdg, 'opencode', 'opencode.json'), '{\n  // mine\n  "model": "anthropic/claude-sonnet-4-5"\n}\n');
    expect(await detectModel({ XDG_CONFIG_HOME: xdg })).toMatchObject({ model: 'anthropic/claude-sonnet-4-5', provider: 'anthropic' });
    expect(await detectModel({ XDG_CONFIG_HOME: xdg, OPENCODE_CONFIG_CONTENT: '{"model":"openai/gpt-5"}' })).toMatchObject({ model: 'openai/gpt-5', source: 'env:OPENCODE_CONFIG_CONTENT' });
  });

  it('testEnvironment detects the installed opencode and its version', async () => {
    const home = path.join(tmp, 'env-home');
    const result = await vendorDLocalAdapter.testEnvironment({ config: { command: OPENCODE, cwd: path.join(tmp, 'work') }, env: { HOME: home, XDG_DATA_HOME: path.join(home, 'data'), ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '', GEMINI_API_KEY: '' } });
    expect(result.status).toBe('pass');
    expect(result.checks.map((c) => c.code)).toEqual(['cwd_created', 'cli_detected', 'cli_version', 'auth_missing']);
    expect(result.checks[2]!.message).toMatch(/\d+\.\d+\.\d+/);
    const missing = await vendorDLocalAdapter.testEnvironment({ config: { command: 'no-such-opencode-xyz' }, env: {} });
    expect(missing.checks.find((c) => c.code === 'cli_not_found')?.hint).toMatch(/opencode-ai/);
  }, 60_000);
});
