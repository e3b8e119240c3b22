import { cliOutcome, ownUsage, resumableSession, runCliHeartbeat, runCwd, skillsPromptNote, usageReport, type CliRun, type ExecutionContext, type ExecutionResult, type SessionTotals } from '@service/adapter-utils';
import { VendorGLocalConfig } from './config.js';
import { qwenArgs } from './args.js';
import { sessionCodec, type QwenSession } from './session.js';
import { QwenStreamState } from './parse.js';
import { classifyQwenError } from './errors.js';

/** No update check (and no self-update) in the middle of a heartbeat. */
const RUN_ENV = { NO_UPDATE_NOTIFIER: '1' };

/**
 * The prompt as Qwen's positional query, placed FIRST: its yargs parser lets a variadic option
 * (`--include-directories`, even in `=` form) swallow a positional after it, and takes none after
 * `--`; without a prompt Qwen starts its interactive UI. A prompt that looks like an option goes
 * as `--prompt=<text>`.
 */
export const promptArg = (prompt: string) => (prompt.startsWith('-') ? `--prompt=${prompt}` : prompt);

/**
 * One heartbeat of Qwen Code: headless `qwen --output-format stream-json`, resuming the stored
 * session of the same directory. Under a PTY the prompt is the first argument; with
 * pipes it goes on stdin.
 */
export async function executeQwen(ctx: ExecutionContext): Promise<ExecutionResult> {
  const config = VendorGLocalConfig.parse(ctx.config);
  const cwd = runCwd(config);
  const resumed = resumableSession(sessionCodec, ctx.runtime.sessionParams, cwd);
  const resume = resumed?.sessionId ?? null;
  return runCliHeartbeat(ctx, {
    state: new QwenStreamState(),
    skillsSubdir: 'skills',
    start: (skills) => {
      const args = qwenArgs({ config, resumeSessionId: resume, skillsRoot: skills?.root ?? null });
      const prompt = ctx.runtime.prompt + (skills ? skillsPromptNote(skills.files) : '');
      return {
        config,
        cwd,
        args,
        ...(config.pty ? { argv: [promptArg(prompt), ...args] } : { argv: args, stdin: prompt }),
        env: { ...RUN_ENV, SERVICE_PROMPT: ctx.runtime.prompt },
        sessionOf: (s) => s.sessionId,
        meta: (s) => ({ model: s.model }),
        resumed: resume !== null,
      };
    },
    finish: (run) => toResult(run, cwd, config.model ?? null, resumed),
  });
}

function toResult({ state, run }: CliRun<QwenStreamState>, cwd: string, configModel: string | null, resumed: QwenSession | null): ExecutionResult {
  const r = state.result;
  const sessionId = r?.sessionId ?? state.sessionId;
  const sameSession = resumed !== null && resumed.sessionId === sessionId;
  const totals: SessionTotals | null = r?.usage ? { input: r.usage.input, cached: r.usage.cacheRead, output: r.usage.output } : sameSession ? resumed.totals : null;
  const u = r?.usage ? ownUsage(totals!, resumed?.totals ?? null, sameSession) : null;
  const model = state.model ?? configModel ?? 'unknown';
  const usage =
    u && u.input + u.output > 0
      ? usageReport({ provider: 'qwen', model, inputTokens: Math.max(0, u.input - u.cached), outputTokens: u.output, cachedInputTokens: u.cached, reportedCostUsd: r?.costUsd ?? null })
      : null;
  const apiError = state.apiError();
  return cliOutcome({
    name: 'Qwen Code',
    run,
    usage,
    summary: r && !r.isError && !apiError ? r.text || state.lastAssistantText || null : null,
    error: classifyQwenError(state),
    session: sessionId ? (sessionCodec.serialize({ sessionId, cwd, totals }) as Record<string, unknown>) : null,
    // Qwen reports API failures as "[API Error: …]" inside a success result: a failure all the same.
    failure: apiError ? { errorCode: 'cli_error', errorMessage: apiError } : state.failure('Qwen Code'),
    finished: r !== null,
    noResult: 'ended without a result line',
    plainLines: state.plainLines,
  });
}
