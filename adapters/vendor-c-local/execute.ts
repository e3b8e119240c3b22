import { cliOutcome, resumableSession, runCliHeartbeat, runCwd, skillsPromptNote, usageReport, type CliRun, type ExecutionContext, type ExecutionResult } from '@service/adapter-utils';
import { VendorCLocalConfig } from './config.js';
import { geminiArgs } from './args.js';
import { sessionCodec } from './session.js';
import { GeminiStreamState } from './parse.js';
import { classifyGeminiError } from './errors.js';

/** No self-update or relaunch in the middle of a heartbeat. */
const RUN_ENV = { GEMINI_CLI_NO_RELAUNCH: 'true', NO_UPDATE_NOTIFIER: '1' };

/**
 * One heartbeat of the Gemini CLI: headless `gemini --output-format stream-json`, resuming the
 * stored session of the same directory. Under a PTY the prompt is `-p <prompt>` (a terminal on
 * stdin would start the interactive UI); with pipes it is read from stdin.
 */
export async function executeGemini(ctx: ExecutionContext): Promise<ExecutionResult> {
  const config = VendorCLocalConfig.parse(ctx.config);
  const cwd = runCwd(config);
  const resume = resumableSession(sessionCodec, ctx.runtime.sessionParams, cwd)?.sessionId ?? null;
  return runCliHeartbeat(ctx, {
    state: new GeminiStreamState(),
    skillsSubdir: 'skills',
    start: (skills) => {
      const args = geminiArgs({ config, resumeSessionId: resume, skillsRoot: skills?.root ?? null });
      const prompt = ctx.runtime.prompt + (skills ? skillsPromptNote(skills.files) : '');
      return {
        config,
        cwd,
        args,
        ...(config.pty ? { argv: [...args, '--prompt', prompt] } : { argv: args, stdin: prompt }),
        env: { ...RUN_ENV, SERVICE_PROMPT: ctx.runtime.prompt },
        sessionOf: (s) => s.sessionId,
        meta: (s) => ({ model: s.model }),
        resumed: resume !== null,
      };
    },
    finish: (run) => toResult(run, cwd, config.model ?? null),
  });
}

function toResult({ state, run }: CliRun<GeminiStreamState>, cwd: string, configModel: string | null): ExecutionResult {
  const r = state.result;
  const u = r?.usage;
  const usage =
    u && u.input + u.output > 0
      ? usageReport({ provider: 'google', model: state.model ?? configModel ?? 'unknown', inputTokens: Math.max(0, u.input - u.cached), outputTokens: u.output, cachedInputTokens: u.cached })
      : null;
  return cliOutcome({
    name: 'The Gemini CLI',
    run,
    usage,
    summary: state.assistantText.trim() || null,
    error: classifyGeminiError(state),
    session: state.sessionId ? (sessionCodec.serialize({ sessionId: state.sessionId, cwd }) as Record<string, unknown>) : null,
    failure: r && r.status !== 'success' ? { errorCode: 'cli_error', errorMessage: r.errorMessage || `The Gemini CLI ended with status ${r.status}` } : null,
    finished: r !== null,
    noResult: 'ended without a result line',
    plainLines: state.plainLines,
  });
}
