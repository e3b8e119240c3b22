import { cliOutcome, ownUsage, resumableSession, runCliHeartbeat, runCwd, skillsPromptNote, usageReport, type CliRun, type ExecutionContext, type ExecutionResult } from '@service/adapter-utils';
import { VendorBLocalConfig } from './config.js';
import { codexArgs } from './args.js';
import { sessionCodec, type CodexSession } from './session.js';
import { CodexStreamState } from './parse.js';
import { classifyCodexError } from './errors.js';
import { detectModelFromEnv } from './detect-model.js';

/**
 * One heartbeat of Codex: `codex exec --json`, or `codex exec --json resume <thread id>` when the
 * agent has a thread from the same directory. Under a PTY the prompt is the last argument (Codex
 * would wait for stdin otherwise only when it is piped); with pipes it is read from stdin (`-`).
 */
export async function executeCodex(ctx: ExecutionContext): Promise<ExecutionResult> {
  const config = VendorBLocalConfig.parse(ctx.config);
  const cwd = runCwd(config);
  const resumed = resumableSession(sessionCodec, ctx.runtime.sessionParams, cwd);
  let model: string | null = null;
  return runCliHeartbeat(ctx, {
    state: new CodexStreamState(),
    skillsSubdir: 'skills',
    start: async (skills) => {
      const args = codexArgs({ config, resumeThreadId: resumed?.threadId ?? null, skillsRoot: skills?.root ?? null });
      const prompt = ctx.runtime.prompt + (skills ? skillsPromptNote(skills.files) : '');
      const env = { ...process.env, ...ctx.runtime.env } as Record<string, string | undefined>;
      model = config.model ?? (await detectModelFromEnv(env)).model ?? null;
      return {
        config,
        cwd,
        args,
        ...(config.pty ? { argv: [...args, '--', prompt] } : { argv: [...args, '-'], stdin: prompt }),
        env: { SERVICE_PROMPT: ctx.runtime.prompt },
        sessionOf: (s) => s.threadId,
        meta: () => ({ model }),
        resumed: resumed !== null,
      };
    },
    finish: (run) => toResult(run, cwd, model, resumed),
  });
}

function toResult({ state, run }: CliRun<CodexStreamState>, cwd: string, model: string | null, resumed: CodexSession | null): ExecutionResult {
  const sameThread = resumed !== null && resumed.threadId === state.threadId;
  const own = state.usage ? ownUsage(state.usage, resumed?.totals ?? null, sameThread) : null;
  const usage =
    own && own.input + own.output > 0
      ? usageReport({ provider: 'openai', model: model ?? 'unknown', inputTokens: Math.max(0, own.input - own.cached), outputTokens: own.output, cachedInputTokens: own.cached })
      : null;
  const threadId = state.threadId;
  const totals = state.usage ?? (sameThread ? resumed?.totals : null) ?? null;
  return cliOutcome({
    name: 'Codex',
    run,
    usage,
    summary: state.lastAssistantText || null,
    error: classifyCodexError(state),
    session: threadId ? (sessionCodec.serialize({ threadId, cwd, totals }) as Record<string, unknown>) : null,
    // A failed turn is a failure whatever the exit code; so is a clean exit without a finished turn.
    failure: state.turnFailed ? { errorCode: 'cli_error', errorMessage: state.turnFailed } : null,
    finished: state.turnCompleted,
    noResult: 'ended without finishing its turn',
    plainLines: state.plainLines,
    keepSessionUnfinished: true,
  });
}
