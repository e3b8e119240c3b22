import os from 'node:os';
import { createEphemeralSkillsDir, runCli, usageReport, type EphemeralSkillsDir, type ExecutionContext, type ExecutionResult } from '@service/adapter-utils';
import { VendorBLocalConfig } from './config.js';
import { codexArgs } from './args.js';
import { sessionCodec, type CodexSession } from './session.js';
import { CodexStreamState, type CodexUsage } from './parse.js';
import { classifyCodexError } from './errors.js';
import { detectModelFromEnv } from './detect-model.js';
import { skillsPromptNote } from './skills.js';

/**
 * One heartbeat of Codex: `codex exec --json`, or `codex exec --json resume <thread id>` when the
 * agent has a thread from the same directory. Under a PTY the prompt is the last argument (Codex
 * would wait for stdin otherwise only when it is piped); with pipes it is read from stdin (`-`).
 */
export async function executeCodex(ctx: ExecutionContext): Promise<ExecutionResult> {
  const config = VendorBLocalConfig.parse(ctx.config);
  const cwd = config.cwd ?? os.tmpdir();
  const stored = sessionCodec.deserialize(ctx.runtime.sessionParams);
  const resumed = stored && (stored.cwd === null || stored.cwd === cwd) ? stored : null;
  let skills: EphemeralSkillsDir | null = null;
  const state = new CodexStreamState();
  try {
    if (ctx.runtime.skills?.length) skills = createEphemeralSkillsDir({ skills: ctx.runtime.skills, skillsSubdir: 'skills' });
    const args = codexArgs({ config, resumeThreadId: resumed?.threadId ?? null, skillsRoot: skills?.root ?? null });
    const prompt = ctx.runtime.prompt + (skills ? skillsPromptNote(skills.files) : '');
    const env = { ...process.env, ...ctx.runtime.env } as Record<string, string | undefined>;
    const model = config.model ?? (await detectModelFromEnv(env)).model;
    let announced = false;
    const onLine = (line: string) => {
      state.push(line);
      if (!announced && state.threadId) {
        announced = true;
        ctx.onMeta({ sessionId: state.threadId, model, resumed: resumed !== null });
      }
    };
    const run = await runCli(ctx, {
      command: config.command,
      args: config.pty ? [...args, '--', prompt] : [...args, '-'],
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
    });
    return toResult(state, run, cwd, model ?? null, resumed);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    return { exitCode: null, timedOut: false, errorCode: typeof code === 'string' ? code : 'execution_error', errorMessage: (err as Error).message };
  } finally {
    skills?.cleanup();
  }
}

/** This heartbeat's own tokens: a resumed thread's totals minus what the stored session had. */
function ownUsage(total: CodexUsage, previous: CodexSession['totals'], sameThread: boolean): CodexUsage {
  if (!sameThread || !previous || total.input < previous.input || total.output < previous.output || total.cached < previous.cached) return total;
  return { input: total.input - previous.input, cached: total.cached - previous.cached, output: total.output - previous.output };
}

function toResult(state: CodexStreamState, run: { exitCode: number | null; signal: string | null; timedOut: boolean; idleTimedOut: boolean }, cwd: string, model: string | null, resumed: CodexSession | null): ExecutionResult {
  const sameThread = resumed !== null && resumed.threadId === state.threadId;
  const own = state.usage ? ownUsage(state.usage, resumed?.totals ?? null, sameThread) : null;
  const usage =
    own && own.input + own.output > 0
      ? usageReport({ provider: 'openai', model: model ?? 'unknown', inputTokens: Math.max(0, own.input - own.cached), outputTokens: own.output, cachedInputTokens: own.cached })
      : null;
  const error = classifyCodexError(state);
  const base: ExecutionResult = { exitCode: run.exitCode, signal: run.signal, timedOut: run.timedOut, usage, summary: state.lastAssistantText || null };
  if (error?.code === 'unknown_session') return { ...base, ...error.toResult(), sessionParams: null };
  const threadId = state.threadId;
  const totals = state.usage ?? (sameThread ? resumed?.totals : null) ?? null;
  const sessionParams = threadId ? (sessionCodec.serialize({ threadId, cwd, totals }) as Record<string, unknown>) : undefined;
  const keep = sessionParams ? { sessionParams } : {};
  if (run.idleTimedOut) return { ...base, ...keep, errorCode: 'idle_timeout', errorMessage: 'Codex printed nothing for too long' };
  if (error) return { ...base, ...keep, ...error.toResult() };
  // A failed turn is a failure whatever the exit code; so is a clean exit without a finished turn.
  if (state.turnFailed) return { ...base, ...keep, errorCode: 'cli_error', errorMessage: state.turnFailed };
  if (!state.turnCompleted && run.exitCode === 0 && !run.timedOut)
    return { ...base, ...keep, errorCode: 'no_result', errorMessage: `Codex ended without finishing its turn${state.plainLines.length ? `: ${state.plainLines.slice(-3).join(' / ')}` : ''}` };
  if (!state.turnCompleted && run.exitCode !== 0 && state.plainLines.length) return { ...base, ...keep, errorMessage: state.plainLines.slice(-3).join(' / ') };
  return { ...base, ...keep };
}
