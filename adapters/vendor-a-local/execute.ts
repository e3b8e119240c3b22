import os from 'node:os';
import { createEphemeralSkillsDir, runCli, usageReport, type EphemeralSkillsDir, type ExecutionContext, type ExecutionResult } from '@service/adapter-utils';
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
 * per-run directory (`--add-dir`). Under a PTY Claude Code does not read stdin (it sees a
 * terminal), so the prompt is the last argument there; with pipes it goes on stdin.
 */
export async function executeClaude(ctx: ExecutionContext): Promise<ExecutionResult> {
  const config = VendorALocalConfig.parse(ctx.config);
  const cwd = config.cwd ?? os.tmpdir();
  const stored = sessionCodec.deserialize(ctx.runtime.sessionParams);
  const resume = stored && (stored.cwd === null || stored.cwd === cwd) ? stored.sessionId : null;
  let skills: EphemeralSkillsDir | null = null;
  const state = new ClaudeStreamState();
  try {
    if (ctx.runtime.skills?.length) skills = createEphemeralSkillsDir({ skills: ctx.runtime.skills, skillsSubdir: '.claude/skills' });
    const args = claudeArgs({ config, resumeSessionId: resume, skillsRoot: skills?.root ?? null });
    const prompt = ctx.runtime.prompt;
    let announced = false;
    const onLine = (line: string) => {
      state.push(line);
      if (!announced && state.sessionId) {
        announced = true;
        ctx.onMeta({ sessionId: state.sessionId, model: state.model, resumed: resume !== null });
      }
    };
    const run = await runCli(ctx, {
      command: config.command,
      args: config.pty ? [...args, '--', prompt] : args,
      metaArgs: args,
      cwd,
      env: { ...RUN_ENV, SERVICE_PROMPT: prompt },
      pty: config.pty,
      ...(config.pty ? {} : { stdin: prompt }),
      timeoutSec: config.timeoutSec,
      graceMs: config.graceMs,
      ...(config.idleTimeoutSec ? { idleTimeoutSec: config.idleTimeoutSec } : {}),
      onLine,
      onStderrLine: (line) => state.push(line),
    });
    return toResult(state, run, cwd);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    return { exitCode: null, timedOut: false, errorCode: typeof code === 'string' ? code : 'execution_error', errorMessage: (err as Error).message };
  } finally {
    skills?.cleanup();
  }
}

function toResult(state: ClaudeStreamState, run: { exitCode: number | null; signal: string | null; timedOut: boolean; idleTimedOut: boolean }, cwd: string): ExecutionResult {
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
  const error = classifyClaudeError(state);
  const base: ExecutionResult = {
    exitCode: run.exitCode,
    signal: run.signal,
    timedOut: run.timedOut,
    usage,
    summary: r && !r.isError ? r.text || state.lastAssistantText || null : state.lastAssistantText || null,
  };
  if (error?.code === 'unknown_session') return { ...base, ...error.toResult(), sessionParams: null };
  const sessionId = r?.sessionId ?? state.sessionId;
  const sessionParams = sessionId ? (sessionCodec.serialize({ sessionId, cwd }) as Record<string, unknown>) : undefined;
  if (run.idleTimedOut) return { ...base, ...(sessionParams ? { sessionParams } : {}), errorCode: 'idle_timeout', errorMessage: 'Claude Code printed nothing for too long' };
  if (error) return { ...base, ...(sessionParams ? { sessionParams } : {}), ...error.toResult() };
  // Exit 0 with an error result is a failure; so is a clean exit without any result line.
  if (r?.isError) return { ...base, ...(sessionParams ? { sessionParams } : {}), errorCode: r.subtype && r.subtype !== 'success' ? r.subtype : 'cli_error', errorMessage: r.text || r.errors.join('; ') || 'Claude Code reported an error' };
  if (!r && run.exitCode === 0 && !run.timedOut) return { ...base, errorCode: 'no_result', errorMessage: `Claude Code ended without a result line${state.plainLines.length ? `: ${state.plainLines.slice(-3).join(' / ')}` : ''}` };
  if (!r && run.exitCode !== 0 && state.plainLines.length) return { ...base, errorMessage: state.plainLines.slice(-3).join(' / ') };
  return { ...base, ...(sessionParams ? { sessionParams } : {}) };
}
