import { readFileSync } from 'node:fs';
import path from 'node:path';
import { splitLines, type ExecutionContext, type TranscriptEntry } from '@service/adapter-utils';
import type { AdapterDescriptor } from '../../../adapters/types.js';

/** The replay shim: any CLI's recorded output, replayed by a real process (pipes or PTY). */
export const REPLAY = path.resolve(import.meta.dirname, '../../fixtures/cli-replay.mjs');

export interface ReplayOptions {
  fixtures: string;
  tmp: string;
  pty: boolean;
  exit?: number;
  /** A fixture file printed on stderr after stdout. */
  stderr?: string;
  sessionParams?: Record<string, unknown> | null;
  config?: Record<string, unknown>;
  env?: Record<string, string>;
}

let n = 0;

/** Runs `adapter.execute()` against the replay shim printing `file`; returns the result and each recorded call. */
export async function replay(adapter: AdapterDescriptor, file: string, options: ReplayOptions) {
  const record = path.join(options.tmp, `record-${process.pid}-${++n}.jsonl`);
  const env: Record<string, string> = { CLI_REPLAY_FILE: path.join(options.fixtures, file), CLI_REPLAY_RECORD: record, CLI_REPLAY_EXIT: String(options.exit ?? 0), CLI_REPLAY_DELAY_MS: '5', ...options.env };
  if (options.pty) env.CLI_REPLAY_WAIT_STDIN = '0';
  if (options.stderr) env.CLI_REPLAY_STDERR_FILE = path.join(options.fixtures, options.stderr);
  const meta: Record<string, unknown> = {};
  const ctx: ExecutionContext = {
    config: adapter.configSchema.parse({ command: REPLAY, cwd: options.tmp, pty: options.pty, timeoutSec: 30, ...options.config }),
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
    onLog: () => undefined,
    onMeta: (m) => Object.assign(meta, m),
  };
  const result = await adapter.execute(ctx);
  const calls: { argv: string[]; stdin: string; isTTY: boolean; env: Record<string, string> }[] = readFileSync(record, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  return { result, calls, meta };
}

/** The entries a UI parser makes of a fixture file. */
export function parseFixture(parse: (line: string, ts: string) => TranscriptEntry[], file: string, ts?: string): TranscriptEntry[] {
  return splitLines(readFileSync(file, 'utf8')).flatMap((l, i) => parse(l, ts ?? `t${i}`));
}
