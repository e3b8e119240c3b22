import type { ApiClient } from './client.js';

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

/** Splits chunks of each stream into whole lines (chunks may cut lines anywhere) and formats them. */
export class TranscriptPrinter {
  private readonly partial = { stdout: '', stderr: '' };

  constructor(private readonly write: (text: string) => void) {}

  push(record: LogRecord): void {
    const text = this.partial[record.stream] + record.data;
    const lines = text.split('\n');
    this.partial[record.stream] = lines.pop() ?? '';
    for (const line of lines) this.print(record.stream, line);
  }

  /** Prints what is left of unterminated lines (at the end of the run). */
  flush(): void {
    for (const stream of ['stdout', 'stderr'] as const) {
      if (this.partial[stream]) this.print(stream, this.partial[stream]);
      this.partial[stream] = '';
    }
  }

  private print(stream: 'stdout' | 'stderr', raw: string): void {
    // Terminal escapes and carriage returns (PTY output) are stripped; the text is kept.
    // eslint-disable-next-line no-control-regex
    const line = raw.replace(/\r$/, '').replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, '').replace(/\x1b\][^\x07]*\x07/g, '');
    this.write(PREFIX[stream] + formatLine(line) + '\n');
  }
}

export interface WatchOptions {
  write?: (text: string) => void;
  pollMs?: number;
  signal?: AbortSignal;
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
  const printer = new TranscriptPrinter(write);
  const first = await client.request<RunInfo>('GET', `/api/heartbeat-runs/${encodeURIComponent(runId)}`);
  write(`run ${first.id} (${first.status})\n`);
  let offset = 0;
  for (;;) {
    if (options.signal?.aborted) throw new Error('stopped');
    const page = await client.request<LogPage>('GET', `/api/heartbeat-runs/${encodeURIComponent(runId)}/log?offset=${offset}`);
    for (const record of page.records) printer.push(record);
    const moved = page.nextOffset !== offset;
    offset = page.nextOffset;
    if (page.done) break;
    if (!moved || page.records.length === 0) await sleep(pollMs);
  }
  printer.flush();
  const run = await client.request<RunInfo>('GET', `/api/heartbeat-runs/${encodeURIComponent(runId)}`);
  write(describeEnd(run) + '\n');
  return run;
}

export const exitCodeFor = (run: RunInfo): number => (run.status === 'succeeded' ? 0 : 1);
