import { MaxTurnsError, cliOutcome, resumableSession, runCliHeartbeat, runCwd, usageReport, type CliRun, type ExecutionContext, type ExecutionResult, type UsageReport } from '@service/adapter-utils';
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
  const cwd = runCwd(config);
  const resume = resumableSession(sessionCodec, ctx.runtime.sessionParams, cwd)?.chatId ?? null;
  return runCliHeartbeat(ctx, {
    state: new CursorStreamState(),
    start: () => {
      const args = cursorArgs(config, cwd, resume);
      const prompt = promptWithSkills(ctx.runtime.prompt, ctx.runtime.skills);
      return {
        config,
        cwd,
        args,
        ...(config.pty ? { argv: [...args, promptArg(prompt)] } : { argv: args, stdin: prompt }),
        env: { SERVICE_PROMPT: ctx.runtime.prompt },
        sessionOf: (s) => s.sessionId,
        meta: (s) => ({ model: s.model }),
        resumed: resume !== null,
        // Cursor has no turn limit of its own: model calls are counted and the run stopped after maxTurns.
        stopWhen: (s) =>
          config.maxTurns && s.modelCalls.size > config.maxTurns
            ? new MaxTurnsError(`Stopped after ${config.maxTurns} model calls (maxTurns)`, 'Raise maxTurns in the agent configuration, or split the task.')
            : null,
      };
    },
    finish: (run) => toResult(run, cwd, config),
  });
}

function usageOf(state: CursorStreamState, config: VendorEConfig): UsageReport | null {
  const u = state.result?.usage;
  if (!u || u.input + u.output + u.cacheRead + u.cacheWrite === 0) return null;
  // The configured model names what was asked for; the init line's name is what Cursor displays.
  const model = config.model && config.model !== 'auto' ? config.model : (state.model ?? config.model ?? 'auto');
  return usageReport({ provider: 'cursor', model: priceModelId(model), inputTokens: u.input, outputTokens: u.output, cachedInputTokens: u.cacheRead, cacheCreationInputTokens: u.cacheWrite });
}

function toResult({ state, run, stopped }: CliRun<CursorStreamState>, cwd: string, config: VendorEConfig): ExecutionResult {
  const r = state.result;
  const chatId = r?.sessionId ?? state.sessionId;
  return cliOutcome({
    name: 'The Cursor agent',
    run,
    usage: usageOf(state, config),
    summary: (r && !r.isError ? r.text.trim() : '') || state.lastAssistantText || null,
    error: classifyCursorError(state),
    session: chatId ? (sessionCodec.serialize({ chatId, cwd }) as Record<string, unknown>) : null,
    stopped,
    // Exit 0 with an error result is a failure; so is a clean exit without any result line.
    failure: r?.isError ? { errorCode: 'cli_error', errorMessage: r.text || 'The Cursor agent reported an error' } : null,
    finished: r !== null,
    noResult: 'ended without a result line',
    plainLines: state.plainLines,
    keepSessionUnfinished: true,
  });
}
