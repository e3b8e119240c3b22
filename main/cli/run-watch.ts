import type { CliFormatter } from '@service/adapter-utils';
import { renderTerminalLine, TerminalLineSplitter } from '@service/adapter-utils';
import type { ApiClient } from './client.js';
import { createBuiltinRegistry } from '../../adapters/registry.js';

export interface LogRecord {
  stream: 'stdout' | 'stderr';
  at: number;
  data: string;
}
interface LogPage {
  records: LogRecord[];
  nextOffset: number;
  size: number;
  done: boolean;
}
export interface RunInfo {
  id: string;
  agentId: string;
  companyId: string;
  status: string;
  adapterType?: string;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  errorCode: string | null;
  errorMessage: string | null;
  cancelReason: string | null;
}

const PREFIX = { stdout: '  │ ', stderr: '  ! ' } as const;

const scalar = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/**
 * One transcript line as shown in the terminal: a JSON line with a `type` field (the stream
 * formats of agent CLIs) becomes `type: text`, where text is its `text`/`message`/`content`
 * when that is a string, else its other fields as compact key=value pairs. Anything else is raw.
 */
export function formatLine(line: string): string {
  const trimmed = line.trim();
  if (trimmed.startsWith('{')) {
    try {
      const obj = JSON.parse(trimmed) as Record<string, unknown>;
      if (obj && typeof obj === 'object' && !Array.isArray(obj) && typeof obj.type === 'string') {
        const { type, ...rest } = obj;
        const text = [rest.text, rest.message, rest.content].find((v): v is string => typeof v === 'string');
        const body = text ?? Object.entries(rest).map(([k, v]) => `${k}=${scalar(v)}`).join(' ');
        return body ? `${type}: ${body}` : String(type);
      }
    } catch {
      // not JSON after all: print as is
    }
  }
  return line;
}

/** The generic formatter, for adapters without their own (and plugins, which the CLI does not load). */
export const genericFormatter: CliFormatter = { formatLine: (line) => formatLine(line) };

/** The run's adapter's CLI formatter when it is a built-in with one, else the generic one. */
export function formatterFor(adapterType: string | undefined): CliFormatter {
  return (adapterType ? createBuiltinRegistry().get(adapterType)?.cliFormatter : undefined) ?? genericFormatter;
}

/**
 * Splits chunks of each stream into whole lines (chunks may cut lines anywhere), renders PTY
 * output as the terminal shows it (a headless terminal emulator: escapes, redraws, titles), and
 * formats stdout lines with the adapter's formatter (null: the line is not shown); stderr is
 * printed as is. Calls must be awaited in order.
 */
export class TranscriptPrinter {
  private readonly splitters = { stdout: new TerminalLineSplitter(), stderr: new TerminalLineSplitter() };

  constructor(
    private readonly write: (text: string) => void,
    private readonly formatter: CliFormatter = genericFormatter,
    private readonly color = false,
  ) {}

  async push(record: LogRecord): Promise<void> {
    for (const line of await this.splitters[record.stream].push(record.data)) this.print(record.stream, line);
  }

  /** Prints what is left of unterminated lines (at the end of the run). */
  async flush(): Promise<void> {
    for (const stream of ['stdout', 'stderr'] as const) {
      for (const line of await this.splitters[stream].end()) this.print(stream, line);
    }
  }

  private print(stream: 'stdout' | 'stderr', line: string): void {
    let shown: string | null = line;
    if (stream === 'stdout') {
      try {
        shown = this.formatter.formatLine(line, { color: this.color });
      } catch {
        shown = formatLine(line); // a formatter must not stop the watch
      }
    }
    if (shown === null) return;
    for (const part of shown.split('\n')) this.write(PREFIX[stream] + part + '\n');
  }
}

export interface WatchOptions {
  write?: (text: string) => void;
  pollMs?: number;
  signal?: AbortSignal;
  /** ANSI colours in formatted lines; default when printing to a terminal. */
  color?: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function describeEnd(run: RunInfo): string {
  const detail = [
    run.exitCode !== null ? `exit ${run.exitCode}` : null,
    run.signal ? `signal ${run.signal}` : null,
    run.timedOut ? 'timed out' : null,
    run.cancelReason,
    run.errorMessage,
  ].filter(Boolean);
  return `run ${run.id} ${run.status}${detail.length ? ` (${detail.join('; ')})` : ''}`;
}

/**
 * `headcount run watch`: replays the transcript from offset 0 through the log route, then follows
 * it live by polling (every 250 ms by default) until the run has ended and all of it is read.
 * Returns the finished run; the exit code is 0 only when it succeeded.
 */
export async function watchRun(client: ApiClient, runId: string, options: WatchOptions = {}): Promise<RunInfo> {
  const write = options.write ?? ((t: string) => void process.stdout.write(t));
  const pollMs = options.pollMs ?? 250;
  const first = await client.request<RunInfo>('GET', `/api/heartbeat-runs/${encodeURIComponent(runId)}`);
  const color = options.color ?? (!options.write && process.stdout.isTTY === true);
  const printer = new TranscriptPrinter(write, formatterFor(first.adapterType), color);
  write(`run ${first.id} (${first.status})\n`);
  let offset = 0;
  for (;;) {
    if (options.signal?.aborted) throw new Error('stopped');
    const page = await client.request<LogPage>('GET', `/api/heartbeat-runs/${encodeURIComponent(runId)}/log?offset=${offset}`);
    for (const record of page.records) await printer.push(record);
    const moved = page.nextOffset !== offset;
    offset = page.nextOffset;
    if (page.done) break;
    if (!moved || page.records.length === 0) await sleep(pollMs);
  }
  await printer.flush();
  const run = await client.request<RunInfo>('GET', `/api/heartbeat-runs/${encodeURIComponent(runId)}`);
  // Runs recorded before error texts were rendered may still carry terminal residue.
  if (run.errorMessage) run.errorMessage = await renderTerminalLine(run.errorMessage);
  write(describeEnd(run) + '\n');
  return run;
}

export const exitCodeFor = (run: RunInfo): number => (run.status === 'succeeded' ? 0 : 1);
