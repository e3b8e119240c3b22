import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderTerminalLine, renderTerminalLines, TerminalLineSplitter, type ExecutionContext } from '@service/adapter-utils';
import { vendorALocalAdapter } from '../../../adapters/vendor-a-local/descriptor.js';

const REPLAY = path.resolve(import.meta.dirname, '../../fixtures/cli-replay.mjs');
/** What Claude Code printed before a timeout: a hidden cursor, a title, a redrawn status line, then on exit the keyboard-mode resets. */
const TIMEOUT_OUTPUT = path.resolve(import.meta.dirname, '../../fixtures/terminal/claude-timeout.txt');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'hc-term-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('terminal output rendered by a headless terminal emulator', () => {
  it('leaves no residue of private CSI (the "4mu" of ESC[>4m ESC[<u), SGR, cursor moves or OSC titles', async () => {
    expect(await renderTerminalLine('Request timed out\x1b[>4m\x1b[<u')).toBe('Request timed out');
    expect(await renderTerminalLine('\x1b[4mUnderlined\x1b[24m and \x1b[1;31mred\x1b[0m')).toBe('Underlined and red');
    expect(await renderTerminalLine('\x1b[?25l\x1b]0;✳ Claude Code\x07Thinking\x1b[?25h')).toBe('Thinking');
    expect(await renderTerminalLine('\x1b]8;;https://example.test\x1b\\a link\x1b]8;;\x1b\\')).toBe('a link');
    expect(await renderTerminalLine('ab\x1b[5Cc\x1b[3Dd')).toBe('ab   d c');
    expect(await renderTerminalLine('Working |\r\x1b[KWorking /\r\x1b[2KDone')).toBe('Done');
    expect(await renderTerminalLine('\x1b[>4m\x1b[<u')).toBe('');
  });

  it('passes plain lines through untouched and joins a long line the terminal wrapped', async () => {
    expect(await renderTerminalLines('{"type":"result"}\n\tindented  \n')).toEqual(['{"type":"result"}', '\tindented  ']);
    const long = 'x'.repeat(2500);
    expect(await renderTerminalLines(`\x1b[32m${long}\x1b[0m`)).toEqual([long]);
  });

  it('splits chunks cut anywhere (even inside an escape) into rendered lines, in order', async () => {
    const s = new TerminalLineSplitter();
    const got = await Promise.all([s.push('{"a":1}\r\n\x1b['), s.push('>4mdone\x1b[<'), s.push('u\r\nplain\r\n'), s.end()]);
    expect(got).toEqual([['{"a":1}'], [], ['done', 'plain'], []]);
  });
});

describe('a timed-out Claude Code run reports clean text', () => {
  it('errorMessage carries what the screen showed, not terminal residue', async () => {
    const ctx: ExecutionContext = {
      config: vendorALocalAdapter.configSchema.parse({ command: REPLAY, cwd: tmp, pty: true, timeoutSec: 1, graceMs: 200 }),
      agent: { id: 'agent-1', name: 'Ada', companyId: 'company-1' },
      runtime: {
        apiUrl: 'http://127.0.0.1:1',
        apiKey: 'run-token',
        env: { CLI_REPLAY_FILE: TIMEOUT_OUTPUT, CLI_REPLAY_WAIT_STDIN: '0', CLI_REPLAY_HANG_MS: '20000' },
        sessionParams: null,
        prompt: 'Work.',
      },
      context: {},
      runId: 'run-1',
      onLog: () => undefined,
      onMeta: () => undefined,
    };
    const result = await vendorALocalAdapter.execute(ctx);
    expect(result.timedOut).toBe(true);
    expect(result.errorMessage).toBe('API Error: Request timed out.');
  });
});
