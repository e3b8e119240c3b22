import { mkdirSync } from 'node:fs';
import { runCli, usageReport, type ExecutionContext, type ExecutionResult, type RunCliResult, type SessionCodec } from '@service/adapter-utils';
import { ampArgs, readConfig, type AmpConfig } from './config.js';
import { foldLine, newStreamState, type AmpStreamState } from './parse.js';
import { classifyError } from './classify.js';
import { ptyAvailable } from './pty-host.js';

/** Amp's thread id (`T-<uuid>`), resumed with `amp threads continue <id>`. */
export type AmpSession = { threadId: string } & Record<string, unknown>;

export const sessionCodec: SessionCodec<AmpSession> = {
  deserialize(raw) {
    const threadId = (raw as { threadId?: unknown } | null)?.threadId;
    return typeof threadId === 'string' && threadId.length > 0 && threadId.length <= 200 ? { threadId } : null;
  },
  serialize(params) {
    return params.threadId ? { threadId: params.threadId } : null;
  },
  getDisplayId(params) {
    return params.threadId || null;
  },
};

interface Attempt {
  run: RunCliResult;
  state: AmpStreamState;
}

async function runOnce(ctx: ExecutionContext, cfg: AmpConfig, threadId: string | null): Promise<Attempt> {
  const state = newStreamState();
  const pty = cfg.pty && ptyAvailable();
  if (cfg.pty && !pty) ctx.onLog('stderr', '[vendor_i_local] node-pty is not available here; running Amp with pipes\n');
  mkdirSync(cfg.cwd, { recursive: true });
  const run = await runCli(ctx, {
    command: cfg.command,
    args: ampArgs(cfg, ctx.runtime.prompt, threadId),
    cwd: cfg.cwd,
    pty,
    timeoutSec: cfg.timeoutSec,
    graceMs: cfg.graceMs,
    ...(cfg.idleTimeoutSec ? { idleTimeoutSec: cfg.idleTimeoutSec } : {}),
    onLine: (line) => foldLine(state, line),
    onStderrLine: (line) => foldLine(state, line),
  });
  if (state.sessionId) ctx.onMeta({ sessionId: state.sessionId });
  if (state.model) ctx.onMeta({ model: state.model });
  return { run, state };
}

/**
 * One heartbeat through Amp. A stored thread is resumed; if Amp no longer knows it, the run is
 * retried once on a fresh thread and the stored one is replaced (or cleared).
 */
export async function executeAmp(ctx: ExecutionContext): Promise<ExecutionResult> {
  const cfg = readConfig(ctx.config);
  const stored = sessionCodec.deserialize(ctx.runtime.sessionParams);
  let attempt = await runOnce(ctx, cfg, stored?.threadId ?? null);
  let retried = false;
  const aborted = () => ctx.signal?.aborted === true;
  if (stored && !aborted() && classifyError(attempt.state, new Date())?.code === 'unknown_session') {
    ctx.onLog('stderr', `[vendor_i_local] Amp does not know thread ${stored.threadId}; retrying once on a fresh thread\n`);
    attempt = await runOnce(ctx, cfg, null);
    retried = true;
  }
  return toResult(attempt, cfg, retried);
}

function toResult({ run, state }: Attempt, cfg: AmpConfig, retried: boolean): ExecutionResult {
  const result: ExecutionResult = { exitCode: run.exitCode, timedOut: run.timedOut, signal: run.signal };
  if (state.sessionId) result.sessionParams = { threadId: state.sessionId };
  else if (retried) result.sessionParams = null;
  if (state.sawUsage || (state.result?.costUsd ?? null) !== null) {
    result.usage = usageReport({
      provider: 'amp',
      // Amp does not always name its model: the configured price model, else the mode.
      model: state.model ?? cfg.priceAsModel ?? `amp-${cfg.mode ?? 'smart'}`,
      inputTokens: state.usage.inputTokens,
      outputTokens: state.usage.outputTokens,
      cachedInputTokens: state.usage.cachedInputTokens,
      cacheCreationInputTokens: state.usage.cacheCreationInputTokens,
      reportedCostUsd: state.result?.costUsd ?? null,
    });
  }
  const summary = (state.result && !state.result.isError ? state.result.text : '') || state.lastAssistantText;
  if (summary) result.summary = summary;
  if (run.timedOut || run.cancelled) return result;
  const cliError = classifyError(state, new Date());
  if (cliError) return { ...result, ...cliError.toResult() };
  if (state.result?.isError) return { ...result, errorCode: 'cli_error', errorMessage: state.result.text || `Amp reported ${state.result.subtype ?? 'an error'}` };
  if (!state.result) {
    const said = state.plainLines.slice(-3).join(' ').slice(0, 500);
    // Exit 0 without the final result line is not a success: the stream was cut short.
    return { ...result, errorCode: run.exitCode === 0 ? 'missing_result' : null, errorMessage: said || 'Amp exited without a result line' };
  }
  return result;
}
