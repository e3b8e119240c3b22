import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  LineSplitter,
  cmdShimTarget,
  commandArgs,
  commonCliChecks,
  checkCwd,
  createEphemeralSkillsDir,
  ephemeralSkillsSnapshot,
  environmentResult,
  modelPrice,
  parseResetAt,
  priceUsage,
  quoteForCmd,
  resolveCommand,
  splitLines,
  usageReport,
  RateLimitedError,
  LoginRequiredError,
} from '@service/adapter-utils';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'hc-cli-infra-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const REPLAY = path.resolve(import.meta.dirname, '../../fixtures/cli-replay.mjs');

describe('resolveCommand', () => {
  it('finds a command on the PATH it is given, and a path as given', () => {
    const bin = path.join(tmp, 'bin');
    mkdirSync(bin, { recursive: true });
    const tool = path.join(bin, 'my-agent-cli');
    writeFileSync(tool, '#!/bin/sh\necho hi\n');
    chmodSync(tool, 0o755);
    expect(resolveCommand('my-agent-cli', { PATH: `/nonexistent${path.delimiter}${bin}` })).toEqual({ path: tool, command: tool, prefixArgs: [] });
    expect(resolveCommand('my-agent-cli', { PATH: '/nonexistent' })).toBeNull();
    expect(resolveCommand(tool, { PATH: '' })?.path).toBe(tool);
    expect(resolveCommand('', {})).toBeNull();
  });

  it('unwraps an npm cmd-shim to the node script it starts', () => {
    const shim = path.join(tmp, 'claude.cmd');
    // The shape npm's cmd-shim writes on Windows.
    writeFileSync(shim, '@ECHO off\r\nGOTO start\r\n:find_dp0\r\nSET dp0=%~dp0\r\nEXIT /b\r\n:start\r\nSETLOCAL\r\nCALL :find_dp0\r\n"%_prog%"  "%dp0%\\node_modules\\@anthropic-ai\\claude-code\\cli.js" %*\r\n');
    expect(cmdShimTarget(shim)).toBe(path.join(tmp, 'node_modules', '@anthropic-ai', 'claude-code', 'cli.js'));
    writeFileSync(path.join(tmp, 'odd.cmd'), '@echo off\r\nsomething-else %*\r\n');
    expect(cmdShimTarget(path.join(tmp, 'odd.cmd'))).toBeNull();
  });

  it('quotes arguments for cmd.exe so metacharacters stay literal', () => {
    expect(quoteForCmd('plain')).toBe('^"plain^"');
    expect(quoteForCmd('a & b | c')).toBe('^"a ^& b ^| c^"');
    expect(quoteForCmd('say "hi"')).toBe('^"say \\^"hi\\^"^"');
    expect(quoteForCmd('C:\\dir\\')).toBe('^"C:\\dir\\\\^"');
    const viaCmd = { path: 'C:\\x\\tool.cmd', command: 'cmd.exe', prefixArgs: ['/d', '/s', '/c'], viaCmd: true };
    expect(commandArgs(viaCmd, ['-p', '100%'])).toEqual(['/d', '/s', '/c', '"^"C:\\x\\tool.cmd^" ^"-p^" ^"100^%^""']);
    expect(commandArgs({ path: '/n', command: '/usr/bin/node', prefixArgs: ['/x/cli.js'] }, ['-p'])).toEqual(['/x/cli.js', '-p']);
  });
});

describe('LineSplitter', () => {
  it('joins lines cut anywhere, handles CRLF, strips terminal escapes and redraws', () => {
    const s = new LineSplitter();
    expect(s.push('{"type":"sys')).toEqual([]);
    expect(s.push('tem"}\r\n\x1b[32m{"a":1}\x1b[0m\r\n')).toEqual(['{"type":"system"}', '{"a":1}']);
    expect(s.push('spinner 1\rspinner 2\rdone\r\n^D\b\b{"b":2}\n')).toEqual(['done', '{"b":2}']);
    expect(s.push('\x1b]0;title\x07tail')).toEqual([]);
    expect(s.end()).toEqual(['tail']);
    expect(s.end()).toEqual([]);
    expect(splitLines('a\r\nb')).toEqual(['a', 'b']);
  });
});

describe('model prices', () => {
  it('finds models by prefix, provider prefix and alias; unknown models are unpriced', () => {
    expect(modelPrice('claude-sonnet-4-5-20250929')).toMatchObject({ input: 3, output: 15 });
    expect(modelPrice('anthropic/claude-sonnet-4-5')).toMatchObject({ input: 3 });
    expect(modelPrice('opus')).toMatchObject({ input: 15 });
    expect(modelPrice('gpt-5-mini-2025-08-07')).toMatchObject({ input: 0.25 });
    expect(modelPrice('gpt-5')).toMatchObject({ input: 1.25 });
    expect(modelPrice('gpt-50')).toBeNull();
    expect(modelPrice('sonnet-4.5-thinking')).toMatchObject({ input: 3 });
    expect(modelPrice('qwen3-coder-flash')).toMatchObject({ input: 0.3 });
    expect(modelPrice('my-local-llama')).toBeNull();
    expect(priceUsage('my-local-llama', { inputTokens: 1000, outputTokens: 10 })).toEqual({ status: 'unpriced' });
    // 1M input at $3 + 1M output at $15 + 1M cache reads at $0.30 + 1M cache writes at $3.75.
    const p = priceUsage('claude-sonnet-4-5', { inputTokens: 1e6, outputTokens: 1e6, cachedInputTokens: 1e6, cacheCreationInputTokens: 1e6 });
    expect(p).toEqual({ status: 'priced', costUsd: 22.05, costCents: 2205 });
  });

  it('builds usage reports: reported cost first, else priced, else unpriced with a null cost', () => {
    const base = { provider: 'anthropic', inputTokens: 100, outputTokens: 50, cachedInputTokens: 1000, cacheCreationInputTokens: 10 };
    expect(usageReport({ ...base, model: 'claude-haiku-4-5', reportedCostUsd: 0.0123 })).toEqual({
      provider: 'anthropic', model: 'claude-haiku-4-5', inputTokens: 110, outputTokens: 50, cachedInputTokens: 1000, costCents: 1.23, costStatus: 'reported',
    });
    const priced = usageReport({ ...base, model: 'claude-haiku-4-5' });
    expect(priced.costStatus).toBe('priced');
    expect(priced.costCents).toBeCloseTo(((100 * 1 + 50 * 5 + 1000 * 0.1 + 10 * 1.25) / 1e6) * 100, 6);
    expect(usageReport({ ...base, model: 'mystery-1' })).toMatchObject({ costCents: null, costStatus: 'unpriced', inputTokens: 110 });
  });
});

describe('CLI error classes', () => {
  it('carry code, hint and reset time into the execution result', () => {
    expect(new LoginRequiredError('Invalid API key', 'Run claude /login').toResult()).toEqual({ errorCode: 'login_required', errorMessage: 'Invalid API key', errorHint: 'Run claude /login', rateLimitResetAt: null });
    expect(new RateLimitedError('limit', '2026-01-01T00:00:00.000Z').toResult()).toMatchObject({ errorCode: 'rate_limited', rateLimitResetAt: '2026-01-01T00:00:00.000Z' });
  });

  it('parses reset times in the forms CLIs print', () => {
    const now = new Date('2026-03-01T10:00:00Z');
    expect(parseResetAt('Claude AI usage limit reached|1772366400', now)).toBe('2026-03-01T12:00:00.000Z');
    expect(parseResetAt('{"resetsAt":1772366400000}', now)).toBe('2026-03-01T12:00:00.000Z');
    expect(parseResetAt('retry after 2026-03-01T11:30:00Z', now)).toBe('2026-03-01T11:30:00.000Z');
    expect(parseResetAt('Rate limited, try again in 5 minutes', now)).toBe('2026-03-01T10:05:00.000Z');
    expect(parseResetAt('in 30s', now)).toBe('2026-03-01T10:00:30.000Z');
    expect(parseResetAt('5-hour limit reached ∙ resets 3pm', now)).toBe('2026-03-01T15:00:00.000Z');
    expect(parseResetAt('limit reached, resets at 9:15am', now)).toBe('2026-03-02T09:15:00.000Z');
    expect(parseResetAt('no time here', now)).toBeNull();
  });
});

describe('ephemeral skills directory', () => {
  it('writes the skill with front matter in a per-run directory and removes it', () => {
    const dir = createEphemeralSkillsDir({ skills: [{ name: 'headcount-heartbeat', description: 'How to work a heartbeat', markdown: '# Skill\nbody\n' }], skillsSubdir: '.claude/skills' });
    expect(dir.files).toEqual([path.join(dir.root, '.claude/skills/headcount-heartbeat/SKILL.md')]);
    expect(readFileSync(dir.files[0]!, 'utf8')).toBe('---\nname: headcount-heartbeat\ndescription: "How to work a heartbeat"\n---\n\n# Skill\nbody\n');
    expect(dir.root.startsWith(os.tmpdir())).toBe(true);
    dir.cleanup();
    dir.cleanup();
    expect(existsSync(dir.root)).toBe(false);
    const parent = mkdtempSync(path.join(tmp, 'skills-'));
    expect(() => createEphemeralSkillsDir({ parent, skills: [{ name: '../escape', description: '', markdown: '' }] })).toThrow(/kebab-case/);
    // A failed write leaves nothing behind.
    expect(readdirSync(parent)).toEqual([]);
  });

  it('reports the spec shape for listSkills/syncSkills', () => {
    expect(ephemeralSkillsSnapshot('vendor_a_local', ['headcount-heartbeat'], ['headcount-heartbeat', 'other'])).toEqual({
      adapterType: 'vendor_a_local',
      supported: true,
      mode: 'ephemeral',
      desiredSkills: ['headcount-heartbeat', 'other'],
      entries: [{ name: 'headcount-heartbeat', installed: true, description: expect.any(String) }],
      warnings: [expect.stringContaining('"other"')],
    });
  });
});

describe('environment checks', () => {
  it('rejects a relative cwd, creates a missing one, and fails exactly on an error check', async () => {
    expect(checkCwd('rel/dir')).toMatchObject({ level: 'error', code: 'invalid_cwd' });
    const missing = path.join(tmp, 'new', 'work');
    expect(checkCwd(missing, { create: true })).toMatchObject({ level: 'info', code: 'cwd_created' });
    expect(existsSync(missing)).toBe(true);
    expect(environmentResult('x', [{ level: 'warn', code: 'w', message: 'm' }]).status).toBe('pass');
    expect(environmentResult('x', [{ level: 'warn', code: 'w', message: 'm' }, { level: 'error', code: 'e', message: 'm' }]).status).toBe('fail');
  });

  it('detects a CLI and its version through a real process', async () => {
    const env = { PATH: process.env.PATH ?? '', CLI_REPLAY_VERSION: '9.8.7 (Replay CLI)' };
    const { checks, version } = await commonCliChecks({ command: REPLAY, cwd: tmp, env, installHint: 'npm i -g replay' });
    expect(checks.map((c) => c.code)).toEqual(['cwd_exists', 'cli_detected', 'cli_version']);
    expect(version).toBe('9.8.7 (Replay CLI)');
    const absent = await commonCliChecks({ command: 'no-such-agent-cli', cwd: 'relative', env, installHint: 'npm i -g no-such-agent-cli' });
    expect(absent.checks).toEqual([
      expect.objectContaining({ level: 'error', code: 'invalid_cwd' }),
      expect.objectContaining({ level: 'error', code: 'cli_not_found', hint: 'npm i -g no-such-agent-cli' }),
    ]);
  });
});

describe('LineSplitter on a flood without newlines', () => {
  it('drops a line longer than its limit whole, keeps bounded memory, and parses the next line', () => {
    const s = new LineSplitter(1024);
    const lines: string[] = [];
    // 64 MiB in one unfinished line: held as it came, this took minutes (each push re-split it all).
    const chunk = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 1024; i++) lines.push(...s.push(chunk));
    lines.push(...s.push('\n{"type":"result","ok":true}\npartial'));
    lines.push(...s.end());
    expect(lines).toEqual(['{"type":"result","ok":true}', 'partial']);
  });

  it('joins a line cut across many chunks exactly once', () => {
    const s = new LineSplitter();
    const out = [...s.push('{"a":'), ...s.push('1,"b"'), ...s.push(':2}\r\n{"c"'), ...s.push(':3}\n')];
    expect(out).toEqual(['{"a":1,"b":2}', '{"c":3}']);
    expect(s.end()).toEqual([]);
  });
});
