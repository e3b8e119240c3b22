import { mkdirSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { processStartTime, type ExecutionResult } from '@service/adapter-utils';
import { heartbeatRuns, type HeartbeatRunRow } from './schema.js';
import { TranscriptWriter, transcriptPath } from './transcript.js';
import { StreamRedactor } from './redact.js';
import { inTransaction, type CoreContext } from '../context.js';

type Stream = 'stdout' | 'stderr';

/** How one run ended, as the engine learned it: what the adapter reported and what happened around it. */
export interface RunOutcome {
  agentId: string;
  /** The adapter's result, unredacted (finishRun redacts it). */
  result: ExecutionResult;
  /** What the adapter announced while running (command, session, model), unredacted. */
  meta: Record<string, unknown>;
  /** The board or a shutdown cancelled it. */
  cancelled: boolean;
  /** Bytes in the stored transcript. */
  transcriptBytes: number;
  /** Secret values the run resolved: every stored string is redacted of them. */
  secrets: string[];
}

/**
 * Everything one run holds while it lives: its transcript, the secret values its output is redacted
 * of, what the adapter announced, the processes it started, and what must be let go at its end
 * (the workspace lock, the network bridge). `executeRun` decides; this object keeps the state.
 */
export class RunContext {
  readonly writer: TranscriptWriter;
  readonly meta: Record<string, unknown> = {};
  private secrets: string[] = [];
  private redactors: Record<Stream, StreamRedactor> = { stdout: new StreamRedactor([]), stderr: new StreamRedactor([]) };
  private readonly processes: { pid: number; startTime: string | null }[] = [];
  private readonly releases: (() => void | Promise<void>)[] = [];

  constructor(
    private readonly ctx: CoreContext,
    readonly run: HeartbeatRunRow,
    transcriptMaxBytes: number,
  ) {
    mkdirSync(ctx.paths.runs, { recursive: true, mode: 0o700 });
    this.writer = new TranscriptWriter(transcriptPath(ctx.paths.runs, run.id), transcriptMaxBytes);
  }

  /** Output already redacted: into the transcript, and live on the company's stream. */
  readonly emit = (stream: Stream, text: string): void => {
    if (!text) return;
    // Output past the head of a capped transcript has no offset until the run ends: not streamed.
    const placed = this.writer.append({ stream, at: Date.now(), data: text });
    if (placed) this.ctx.events.publish(this.run.companyId, 'run.log', { runId: this.run.id, agentId: this.run.agentId, stream, offset: placed.offset, nextOffset: placed.nextOffset, data: text });
  };

  /** Raw output of the agent: redacted (a secret split across chunks included), then emitted. */
  readonly output = (stream: Stream, chunk: string): void => this.emit(stream, this.redactors[stream].push(chunk));

  /** Secret values the run resolved: from now on its output is redacted of them. */
  addSecrets(values: readonly string[]): void {
    this.secrets = [...this.secrets, ...values];
    this.redactors = { stdout: new StreamRedactor(this.secrets), stderr: new StreamRedactor(this.secrets) };
  }

  /** Something to let go when the run ends, whatever happened (called in reverse order). */
  onEnd(release: () => void | Promise<void>): void {
    this.releases.push(release);
  }

  /**
   * Each process the run starts, with its start time: a restart ends what a crash left behind and
   * never mistakes a reused pid for one of ours (recovery.ts).
   */
  recordProcess(pid: number): void {
    this.processes.push({ pid, startTime: processStartTime(pid) });
    // Committed before the process does anything (a transaction of its own, never in a commit
    // group): a restart after a crash ends what it finds recorded here.
    inTransaction(this.ctx, (tx) => tx.update(heartbeatRuns).set({ pid, processes: this.processes }).where(eq(heartbeatRuns.id, this.run.id)).run());
  }

  /** Flushes the redactors' held tails, closes the transcript and lets go of what the run held. */
  async end(): Promise<void> {
    for (const release of this.releases.splice(0).reverse()) await release();
    this.emit('stdout', this.redactors.stdout.end());
    this.emit('stderr', this.redactors.stderr.end());
    this.writer.close();
  }

  outcome(result: ExecutionResult, cancelled: boolean): RunOutcome {
    return { agentId: this.run.agentId, result, meta: this.meta, cancelled, transcriptBytes: this.writer.size, secrets: this.secrets };
  }
}
