import { MaxTurnsError, cliOutcome, resumableSession, runCliHeartbeat, runCwd, usageReport, type CliRun, type ExecutionContext, type ExecutionResult, type UsageReport } from '@service/adapter-utils';
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
  const cwd = runCwd(config);
  const resume = resumableSession(sessionCodec, ctx.runtime.sessionParams, cwd)?.sessionId ?? null;
  const prompt = ctx.runtime.prompt;
  return runCliHeartbeat(ctx, {
    state: new PiStreamState(),
    skillsSubdir: 'skills',
    start: (skills) => {
      const args = piArgs({ config, resumeSessionId: resume, skillsDir: skills?.skillsDir ?? null });
      return {
        config,
        cwd,
        args,
        ...(config.pty ? { argv: [...args, promptArg(prompt)] } : { argv: args, stdin: prompt }),
        // Startup update checks would make a heartbeat depend on the network; the agent env may say otherwise.
        env: { SERVICE_PROMPT: prompt, ...('PI_OFFLINE' in ctx.runtime.env ? {} : { PI_OFFLINE: '1' }) },
        sessionOf: (s) => s.sessionId,
        resumed: resume !== null,
        // Pi has no turn limit of its own: turns are counted and the run stopped after maxTurns.
        stopWhen: (s) =>
          config.maxTurns && s.turns > config.maxTurns ? new MaxTurnsError(`Stopped after ${config.maxTurns} turns (maxTurns)`, 'Raise maxTurns in the agent configuration, or split the task.') : null,
      };
    },
    finish: (run) => toResult(run, cwd),
  });
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

function toResult({ state, run, stopped }: CliRun<PiStreamState>, cwd: string): ExecutionResult {
  return cliOutcome({
    name: 'pi',
    run,
    usage: usageOf(state),
    summary: state.lastAssistantText || null,
    error: classifyPiError(state),
    session: state.sessionId ? (sessionCodec.serialize({ sessionId: state.sessionId, cwd }) as Record<string, unknown>) : null,
    stopped,
    // Pi exits 0 in JSON mode even when the model call failed: the last message says so.
    failure: state.failed ? { errorCode: state.lastStopReason === 'aborted' ? 'aborted' : 'cli_error', errorMessage: state.errorMessages.at(-1) ?? `pi stopped: ${state.lastStopReason}` } : null,
    finished: state.ended,
    noResult: 'ended without finishing the agent loop',
    plainLines: state.plainLines,
    keepSessionUnfinished: true,
  });
}
