import os from 'node:os';
import { MaxTurnsError, runCli, usageReport, type ExecutionContext, type ExecutionResult, type UsageReport } from '@service/adapter-utils';
import { VendorEConfig } from './config.js';
import { cursorArgs, promptArg } from './args.js';
import { sessionCodec } from './session.js';
import { CursorStreamState } from './parse.js';
import { classifyCursorError } from './errors.js';
import { promptWithSkills } from './skills.js';
import { priceModelId } from './models.js';

/**
 * One heartbeat of the Cursor agent CLI in headless mode: `-p --output-format stream-json`,
 * resuming the stored chat when it belongs to the same workspace. Under a PTY the prompt is the
 * last argument; with pipes it goes on stdin (both are documented ways to pass it).
 */
export async function executeCursor(ctx: ExecutionContext): Promise<ExecutionResult> {
  const config = VendorEConfig.parse(ctx.config);
  const cwd = config.cwd ?? os.tmpdir();
  const stored = sessionCodec.deserialize(ctx.runtime.sessionParams);
  const resume = stored && (stored.cwd === null || stored.cwd === cwd) ? stored.chatId : null;
  const state = new CursorStreamState();
  const stop = new AbortController();
  const forward = () => stop.abort();
  ctx.signal?.addEventListener('abort', forward, { once: true });
  if (ctx.signal?.aborted) stop.abort();
  let overTurns = false;
  try {
    const args = cursorArgs(config, cwd, resume);
    const prompt = promptWithSkills(ctx.runtime.prompt, ctx.runtime.skills);
    let announced = false;
    const onLine = (line: string) => {
      state.push(line);
      if (!announced && state.sessionId) {
        announced = true;
        ctx.onMeta({ sessionId: state.sessionId, model: state.model, resumed: resume !== null });
      }
      if (config.maxTurns && state.modelCalls.size > config.maxTurns && !overTurns) {
        overTurns = true;
        stop.abort();
      }
    };
    const run = await runCli(
      { ...ctx, signal: stop.signal },
      {
        command: config.command,
        args: config.pty ? [...args, promptArg(prompt)] : args,
        metaArgs: args,
        cwd,
        env: { SERVICE_PROMPT: ctx.runtime.prompt },
        pty: config.pty,
        ...(config.pty ? {} : { stdin: prompt }),
        timeoutSec: config.timeoutSec,
        graceMs: config.graceMs,
        ...(config.idleTimeoutSec ? { idleTimeoutSec: config.idleTimeoutSec } : {}),
        onLine,
        onStderrLine: (line) => state.push(line),
      },
    );
    return toResult(state, run, cwd, config, overTurns);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    return { exitCode: null, timedOut: false, errorCode: typeof code === 'string' ? code : 'execution_error', errorMessage: (err as Error).message };
  } finally {
    ctx.signal?.removeEventListener('abort', forward);
  }
}

function usageOf(state: CursorStreamState, config: VendorEConfig): UsageReport | null {
  const u = state.result?.usage;
  if (!u || u.input + u.output + u.cacheRead + u.cacheWrite === 0) return null;
  // The configured model names what was asked for; the init line's name is what Cursor displays.
  const model = config.model && config.model !== 'auto' ? config.model : (state.model ?? config.model ?? 'auto');
  return usageReport({ provider: 'cursor', model: priceModelId(model), inputTokens: u.input, outputTokens: u.output, cachedInputTokens: u.cacheRead, cacheCreationInputTokens: u.cacheWrite });
}

interface RunOutcome {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  idleTimedOut: boolean;
}

function toResult(state: CursorStreamState, run: RunOutcome, cwd: string, config: VendorEConfig, overTurns: boolean): ExecutionResult {
  const r = state.result;
  const error = classifyCursorError(state);
  const base: ExecutionResult = {
    exitCode: run.exitCode,
    signal: run.signal,
    timedOut: run.timedOut,
    usage: usageOf(state, config),
    summary: (r && !r.isError ? r.text.trim() : '') || state.lastAssistantText || null,
  };
  if (error?.code === 'unknown_session') return { ...base, ...error.toResult(), sessionParams: null };
  const chatId = r?.sessionId ?? state.sessionId;
  const withSession: ExecutionResult = chatId ? { ...base, sessionParams: sessionCodec.serialize({ chatId, cwd }) as Record<string, unknown> } : base;
  if (overTurns) return { ...withSession, ...new MaxTurnsError(`Stopped after ${config.maxTurns} model calls (maxTurns)`, 'Raise maxTurns in the agent configuration, or split the task.').toResult() };
  if (run.idleTimedOut) return { ...withSession, errorCode: 'idle_timeout', errorMessage: 'The Cursor agent printed nothing for too long' };
  if (error) return { ...withSession, ...error.toResult() };
  // Exit 0 with an error result is a failure; so is a clean exit without any result line.
  if (r?.isError) return { ...withSession, errorCode: 'cli_error', errorMessage: r.text || 'The Cursor agent reported an error' };
  if (!r && run.exitCode === 0 && !run.timedOut) return { ...withSession, errorCode: 'no_result', errorMessage: `The Cursor agent ended without a result line${state.plainLines.length ? `: ${state.plainLines.slice(-3).join(' / ')}` : ''}` };
  if (!r && run.exitCode !== 0 && state.plainLines.length) return { ...withSession, errorMessage: state.plainLines.slice(-3).join(' / ') };
  return withSession;
}
