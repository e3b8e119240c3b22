import { cliOutcome, resumableSession, runCliHeartbeat, runCwd, usageReport, type ClaudeStreamState as State, type ExecutionContext, type ExecutionResult, type CliRun } from '@service/adapter-utils';
import { VendorALocalConfig } from './config.js';
import { claudeArgs } from './args.js';
import { sessionCodec } from './session.js';
import { ClaudeStreamState } from './parse.js';
import { classifyClaudeError } from './errors.js';

/** Claude Code updating itself in the middle of a heartbeat would change the CLI under the run. */
const RUN_ENV = { DISABLE_AUTOUPDATER: '1' };

/**
 * One heartbeat of Claude Code: `claude -p --output-format stream-json --verbose`, resuming the
 * stored session when it belongs to the same working directory, with the heartbeat skill in a
 * per-run `--add-dir`. Under a PTY Claude Code does not read stdin, so the prompt is the last
 * argument there; with pipes it goes on stdin.
 */
export async function executeClaude(ctx: ExecutionContext): Promise<ExecutionResult> {
  const config = VendorALocalConfig.parse(ctx.config);
  const cwd = runCwd(config);
  const resume = resumableSession(sessionCodec, ctx.runtime.sessionParams, cwd)?.sessionId ?? null;
  const prompt = ctx.runtime.prompt;
  return runCliHeartbeat(ctx, {
    state: new ClaudeStreamState(),
    skillsSubdir: '.claude/skills',
    start: (skills) => {
      const args = claudeArgs({ config, resumeSessionId: resume, skillsRoot: skills?.root ?? null });
      return {
        config,
        cwd,
        args,
        ...(config.pty ? { argv: [...args, '--', prompt] } : { argv: args, stdin: prompt }),
        env: { ...RUN_ENV, SERVICE_PROMPT: prompt },
        sessionOf: (s) => s.sessionId,
        meta: (s) => ({ model: s.model }),
        resumed: resume !== null,
      };
    },
    finish: (run) => toResult(run, cwd),
  });
}

function toResult({ state, run }: CliRun<State>, cwd: string): ExecutionResult {
  const r = state.result;
  const usage =
    r?.usage && (r.usage.input + r.usage.output + r.usage.cacheRead + r.usage.cacheWrite > 0 || (r.costUsd ?? 0) > 0)
      ? usageReport({
          provider: 'anthropic',
          model: state.model ?? 'unknown',
          inputTokens: r.usage.input,
          outputTokens: r.usage.output,
          cachedInputTokens: r.usage.cacheRead,
          cacheCreationInputTokens: r.usage.cacheWrite,
          reportedCostUsd: r.costUsd,
        })
      : null;
  const sessionId = r?.sessionId ?? state.sessionId;
  return cliOutcome({
    name: 'Claude Code',
    run,
    usage,
    summary: state.summary(),
    error: classifyClaudeError(state),
    session: sessionId ? (sessionCodec.serialize({ sessionId, cwd }) as Record<string, unknown>) : null,
    // Exit 0 with an error result is a failure; so is a clean exit without any result line.
    failure: state.failure('Claude Code'),
    finished: r !== null,
    noResult: 'ended without a result line',
    plainLines: state.plainLines,
  });
}
