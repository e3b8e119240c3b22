import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, CliNotFoundError, type ExecutionContext } from '@service/adapter-utils';

const REPLAY = path.resolve(import.meta.dirname, '../../fixtures/cli-replay.mjs');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'hc-replay-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function context(env: Record<string, string>) {
  const logs: { stream: string; chunk: string }[] = [];
  const meta: Record<string, unknown> = {};
  const ctx: ExecutionContext = {
    config: {},
    agent: { id: 'agent-1', name: 'Ada', companyId: 'company-1' },
    runtime: { apiUrl: 'http://127.0.0.1:1', apiKey: 'run-token', env, sessionParams: null, prompt: 'Do the work' },
    context: { taskId: 'ACME-1', taskTitle: 'First' },
    runId: 'run-1',
    onLog: (stream, chunk) => logs.push({ stream, chunk }),
    onMeta: (m) => Object.assign(meta, m),
  };
  return { ctx, logs, meta };
}

const fixture = (name: string, text: string) => {
  const file = path.join(tmp, name);
  writeFileSync(file, text);
  return file;
};

describe('the replay shim run through runCli', () => {
  for (const pty of [false, true]) {
    it(`replays a recording line by line and records argv, stdin and env (${pty ? 'PTY' : 'pipes'})`, async () => {
      const record = path.join(tmp, `record-${pty}.jsonl`);
      const file = fixture(`out-${pty}.jsonl`, '{"type":"system","run":"{{ENV:SERVICE_RUN_ID}}"}\n{"type":"result","resume":"{{ARG_AFTER:--resume}}"}\n');
      const { ctx, logs, meta } = context({ CLI_REPLAY_FILE: file, CLI_REPLAY_RECORD: record, CLI_REPLAY_DELAY_MS: '20', CLI_REPLAY_EXIT: '3' });
      const lines: string[] = [];
      const started = Date.now();
      const result = await runCli(ctx, {
        command: REPLAY,
        args: ['--resume', 'sess-1', '-p'],
        pty,
        // Under a PTY, stdin is the terminal: the shim must not wait for it there.
        ...(pty ? { env: { CLI_REPLAY_WAIT_STDIN: '0' } } : { stdin: 'the prompt' }),
        onLine: (l) => lines.push(l),
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(40);
      expect(result.exitCode).toBe(3);
      expect(lines.filter((l) => l)).toEqual(['{"type":"system","run":"run-1"}', '{"type":"result","resume":"sess-1"}']);
      expect(logs.some((l) => l.chunk.includes('"type":"system"'))).toBe(true);
      expect(meta).toMatchObject({ command: REPLAY, args: ['--resume', 'sess-1', '-p'], pid: expect.any(Number) });
      const [call] = readFileSync(record, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      expect(call).toMatchObject({ argv: ['--resume', 'sess-1', '-p'], isTTY: pty, stdin: pty ? '' : 'the prompt' });
      expect(call.env).toMatchObject({ SERVICE_API_KEY: 'run-token', SERVICE_RUN_ID: 'run-1', SERVICE_TASK_ID: 'ACME-1' });
    });
  }

  it('plays a sequence, one file and exit code per invocation', async () => {
    const a = fixture('a.txt', 'first\n');
    const b = fixture('b.txt', 'second\n');
    const env = { CLI_REPLAY_SEQUENCE: [a, b].join(path.delimiter), CLI_REPLAY_STATE: path.join(tmp, 'state'), CLI_REPLAY_EXIT: `1${path.delimiter}0` };
    const outputs: { lines: string[]; exit: number | null }[] = [];
    for (let i = 0; i < 3; i++) {
      const lines: string[] = [];
      const r = await runCli(context(env).ctx, { command: REPLAY, args: [], pty: false, onLine: (l) => lines.push(l) });
      outputs.push({ lines, exit: r.exitCode });
    }
    expect(outputs).toEqual([
      { lines: ['first'], exit: 1 },
      { lines: ['second'], exit: 0 },
      { lines: ['second'], exit: 0 },
    ]);
  });

  it('says cli_not_found for a command that is not there', async () => {
    await expect(runCli(context({}).ctx, { command: 'no-such-agent-cli-xyz', args: [], onLine: () => {} })).rejects.toBeInstanceOf(CliNotFoundError);
  });
});
