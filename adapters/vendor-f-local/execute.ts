import os from 'node:os';
import { MaxTurnsError, createEphemeralSkillsDir, runCli, usageReport, type EphemeralSkillsDir, type ExecutionContext, type ExecutionResult, type UsageReport } from '@service/adapter-utils';
import { VendorFLocalConfig } from './config.js';
import { piArgs, promptArg } from './args.js';
import { sessionCodec } from './session.js';
import { PiStreamState } from './parse.js';
import { classifyPiError } from './errors.js';

/**
 * One heartbeat of pi: `pi -p --mode json`, resuming the stored session when it belongs to the
 * same working directory (pi would otherwise stop and ask whether to fork it), with the heartbeat
 * skill from a per-run directory (`--skill`). Under a PTY pi does not read stdin, so the prompt is
 * the last argument there; with pipes it goes on stdin.
 */
export async function executePi(ctx: ExecutionContext): Promise<ExecutionResult> {
  const config = VendorFLocalConfig.parse(ctx.config);
  const cwd = config.cwd ?? os.tmpdir();
  const stored = sessionCodec.deserialize(ctx.runtime.sessionParams);
  const resume = stored && (stored.cwd === null || stored.cwd === cwd) ? stored.sessionId : null;
  const state = new PiStreamState();
  // Our own stop (max turns) and the engine's cancel both end the process.
  const stop = new AbortController();
  const forward = () => stop.abort();
  ctx.signal?.addEventListener('abort', forward, { once: true });
  if (ctx.signal?.aborted) stop.abort();
  let overTurns = false;
  let skills: EphemeralSkillsDir | null = null;
  try {
    if (ctx.runtime.skills?.length) skills = createEphemeralSkillsDir({ skills: ctx.runtime.skills, skillsSubdir: 'skills' });
    const args = piArgs({ config, resumeSessionId: resume, skillsDir: skills?.skillsDir ?? null });
    const prompt = ctx.runtime.prompt;
    let announced = false;
    const onLine = (line: string) => {
      state.push(line);
      if (!announced && state.sessionId) {
        announced = true;
        ctx.onMeta({ sessionId: state.sessionId, resumed: resume !== null });
      }
      if (config.maxTurns && state.turns > config.maxTurns && !overTurns) {
        overTurns = true;
        stop.abort();
      }
    };
    // Startup update checks would make a heartbeat depend on the network; the agent env may say otherwise.
    const runEnv: Record<string, string> = { SERVICE_PROMPT: prompt, ...('PI_OFFLINE' in ctx.runtime.env ? {} : { PI_OFFLINE: '1' }) };
    const run = await runCli(
      { ...ctx, signal: stop.signal },
      {
        command: config.command,
        args: config.pty ? [...args, promptArg(prompt)] : args,
        metaArgs: args,
        cwd,
        env: runEnv,
        pty: config.pty,
        ...(config.pty ? {} : { stdin: prompt }),
        timeoutSec: config.timeoutSec,
        graceMs: config.graceMs,
        ...(config.idleTimeoutSec ? { idleTimeoutSec: config.idleTimeoutSec } : {}),
        onLine,
        onStderrLine: (line) => state.push(line),
      },
    );
    return toResult(state, run, cwd, overTurns ? (config.maxTurns ?? null) : null);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    return { exitCode: null, timedOut: false, errorCode: typeof code === 'string' ? code : 'execution_error', errorMessage: (err as Error).message };
  } finally {
    ctx.signal?.removeEventListener('abort', forward);
    skills?.cleanup();
  }
}

function usageOf(state: PiStreamState): UsageReport | null {
  const u = state.usage;
  if (u.input + u.output + u.cacheRead + u.cacheWrite === 0 && u.costUsd === 0) return null;
  return usageReport({
    provider: state.provider ?? 'unknown',
    model: state.model ?? 'unknown',
    inputTokens: u.input,
    outputTokens: u.output,
    cachedInputTokens: u.cacheRead,
    cacheCreationInputTokens: u.cacheWrite,
    // Pi prices calls from its model registry; a zero total means it knows no price (custom models), not a free run.
    reportedCostUsd: u.costUsd > 0 ? u.costUsd : null,
  });
}

interface RunOutcome {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  idleTimedOut: boolean;
  cancelled?: boolean;
}

function toResult(state: PiStreamState, run: RunOutcome, cwd: string, maxTurns: number | null): ExecutionResult {
  const error = classifyPiError(state);
  const base: ExecutionResult = { exitCode: run.exitCode, signal: run.signal, timedOut: run.timedOut, usage: usageOf(state), summary: state.lastAssistantText || null };
  if (error?.code === 'unknown_session') return { ...base, ...error.toResult(), sessionParams: null };
  const withSession: ExecutionResult = state.sessionId ? { ...base, sessionParams: sessionCodec.serialize({ sessionId: state.sessionId, cwd }) as Record<string, unknown> } : base;
  if (maxTurns !== null) return { ...withSession, ...new MaxTurnsError(`Stopped after ${maxTurns} turns (maxTurns)`, 'Raise maxTurns in the agent configuration, or split the task.').toResult() };
  if (run.idleTimedOut) return { ...withSession, errorCode: 'idle_timeout', errorMessage: 'pi printed nothing for too long' };
  if (error) return { ...withSession, ...error.toResult() };
  // Pi exits 0 in JSON mode even when the model call failed: the last message says so.
  if (state.failed) return { ...withSession, errorCode: state.lastStopReason === 'aborted' ? 'aborted' : 'cli_error', errorMessage: state.errorMessages.at(-1) ?? `pi stopped: ${state.lastStopReason}` };
  if (!state.ended && run.exitCode === 0 && !run.timedOut) return { ...withSession, errorCode: 'no_result', errorMessage: `pi ended without finishing the agent loop${state.plainLines.length ? `: ${state.plainLines.slice(-3).join(' / ')}` : ''}` };
  if (!state.ended && run.exitCode !== 0 && state.plainLines.length) return { ...withSession, errorMessage: state.plainLines.slice(-3).join(' / ') };
  return withSession;
}
