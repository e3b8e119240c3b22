import { cliOutcome, resumableSession, runCliHeartbeat, runCwd, skillsPromptNote, usageReport, type CliRun, type ExecutionContext, type ExecutionResult } from '@service/adapter-utils';
import { VendorDLocalConfig } from './config.js';
import { opencodeArgs } from './args.js';
import { sessionCodec } from './session.js';
import { OpenCodeStreamState } from './parse.js';
import { classifyOpenCodeError } from './errors.js';
import { detectModel } from './detect-model.js';

/** No self-update in the middle of a heartbeat. */
const RUN_ENV = { OPENCODE_DISABLE_AUTOUPDATE: '1' };

/**
 * One heartbeat of OpenCode: `opencode run --format json`, continuing the stored session of the
 * same directory with `--session`. The prompt is the message argument, after `--`.
 */
export async function executeOpenCode(ctx: ExecutionContext): Promise<ExecutionResult> {
  const config = VendorDLocalConfig.parse(ctx.config);
  const cwd = runCwd(config);
  const resume = resumableSession(sessionCodec, ctx.runtime.sessionParams, cwd)?.sessionId ?? null;
  let model: string | null = null;
  return runCliHeartbeat(ctx, {
    state: new OpenCodeStreamState(),
    skillsSubdir: 'skills',
    start: async (skills) => {
      const args = opencodeArgs(config, resume);
      const prompt = ctx.runtime.prompt + (skills ? skillsPromptNote(skills.files) : '');
      model = config.model ?? (await detectModel({ ...process.env, ...ctx.runtime.env })).model;
      return {
        config,
        cwd,
        args,
        argv: [...args, '--', prompt],
        env: { ...RUN_ENV, SERVICE_PROMPT: ctx.runtime.prompt },
        sessionOf: (s) => s.sessionId,
        meta: () => ({ model }),
        resumed: resume !== null,
      };
    },
    finish: (run) => toResult(run, cwd, model),
  });
}

function toResult({ state, run }: CliRun<OpenCodeStreamState>, cwd: string, model: string | null): ExecutionResult {
  const u = state.usage;
  const provider = model?.split('/')[0] ?? 'opencode';
  const usage =
    u.input + u.output + u.cacheRead + u.cacheWrite > 0
      ? usageReport({
          provider,
          model: model ?? 'unknown',
          inputTokens: u.input,
          outputTokens: u.output + u.reasoning,
          cachedInputTokens: u.cacheRead,
          cacheCreationInputTokens: u.cacheWrite,
          // OpenCode prices steps from its models catalogue; 0 means it had no price, not free.
          reportedCostUsd: state.costUsd > 0 ? state.costUsd : null,
        })
      : null;
  const failure = state.errors.at(-1);
  return cliOutcome({
    name: 'OpenCode',
    run,
    usage,
    summary: state.lastText || null,
    error: classifyOpenCodeError(state),
    session: state.sessionId ? (sessionCodec.serialize({ sessionId: state.sessionId, cwd }) as Record<string, unknown>) : null,
    failure: failure ? { errorCode: 'cli_error', errorMessage: `${failure.name}: ${failure.message}` } : null,
    finished: state.steps > 0,
    noResult: 'ended without finishing a step',
    plainLines: state.plainLines,
  });
}
