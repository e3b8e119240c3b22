import os from 'node:os';
import { createEphemeralSkillsDir, runCli, usageReport, type EphemeralSkillsDir, type ExecutionContext, type ExecutionResult } from '@service/adapter-utils';
import { VendorGLocalConfig } from './config.js';
import { qwenArgs } from './args.js';
import { sessionCodec, type QwenSession } from './session.js';
import { QwenStreamState } from './parse.js';
import { classifyQwenError } from './errors.js';
import { skillsPromptNote } from './skills.js';

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
  const cwd = config.cwd ?? os.tmpdir();
  const stored = sessionCodec.deserialize(ctx.runtime.sessionParams);
  const resumed = stored && (stored.cwd === null || stored.cwd === cwd) ? stored : null;
  const resume = resumed?.sessionId ?? null;
  let skills: EphemeralSkillsDir | null = null;
  const state = new QwenStreamState();
  try {
    if (ctx.runtime.skills?.length) skills = createEphemeralSkillsDir({ skills: ctx.runtime.skills, skillsSubdir: 'skills' });
    const args = qwenArgs({ config, resumeSessionId: resume, skillsRoot: skills?.root ?? null });
    const prompt = ctx.runtime.prompt + (skills ? skillsPromptNote(skills.files) : '');
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
      args: config.pty ? [promptArg(prompt), ...args] : args,
      metaArgs: args,
      cwd,
      env: { ...RUN_ENV, SERVICE_PROMPT: ctx.runtime.prompt },
      pty: config.pty,
      ...(config.pty ? {} : { stdin: prompt }),
      timeoutSec: config.timeoutSec,
      graceMs: config.graceMs,
      ...(config.idleTimeoutSec ? { idleTimeoutSec: config.idleTimeoutSec } : {}),
      onLine,
      onStderrLine: (line) => state.push(line),
    });
    return toResult(state, run, cwd, config.model ?? null, resumed);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    return { exitCode: null, timedOut: false, errorCode: typeof code === 'string' ? code : 'execution_error', errorMessage: (err as Error).message };
  } finally {
    skills?.cleanup();
  }
}

type Totals = NonNullable<QwenSession['totals']>;

/** This heartbeat's own tokens: a resumed session's totals minus what the stored session had. */
function ownUsage(total: Totals, previous: QwenSession['totals'], sameSession: boolean): Totals {
  if (!sameSession || !previous || total.input < previous.input || total.output < previous.output || total.cached < previous.cached) return total;
  return { input: total.input - previous.input, cached: total.cached - previous.cached, output: total.output - previous.output };
}

function toResult(state: QwenStreamState, run: { exitCode: number | null; signal: string | null; timedOut: boolean; idleTimedOut: boolean }, cwd: string, configModel: string | null, resumed: QwenSession | null): ExecutionResult {
  const r = state.result;
  const sessionId = r?.sessionId ?? state.sessionId;
  const sameSession = resumed !== null && resumed.sessionId === sessionId;
  const totals: Totals | null = r?.usage ? { input: r.usage.input, cached: r.usage.cacheRead, output: r.usage.output } : sameSession ? resumed.totals : null;
  const u = r?.usage ? ownUsage(totals!, resumed?.totals ?? null, sameSession) : null;
  const model = state.model ?? configModel ?? 'unknown';
  const usage =
    u && u.input + u.output > 0
      ? usageReport({ provider: 'qwen', model, inputTokens: Math.max(0, u.input - u.cached), outputTokens: u.output, cachedInputTokens: u.cached, reportedCostUsd: r?.costUsd ?? null })
      : null;
  const error = classifyQwenError(state);
  const apiError = state.apiError();
  const summary = r && !r.isError && !apiError ? r.text || state.lastAssistantText || null : null;
  const base: ExecutionResult = { exitCode: run.exitCode, signal: run.signal, timedOut: run.timedOut, usage, summary };
  if (error?.code === 'unknown_session') return { ...base, ...error.toResult(), sessionParams: null };
  const keep = sessionId ? { sessionParams: sessionCodec.serialize({ sessionId, cwd, totals }) as Record<string, unknown> } : {};
  if (run.idleTimedOut) return { ...base, ...keep, errorCode: 'idle_timeout', errorMessage: 'Qwen Code printed nothing for too long' };
  if (error) return { ...base, ...keep, ...error.toResult() };
  // Qwen reports API failures as "[API Error: …]" inside a success result: a failure all the same.
  if (apiError) return { ...base, ...keep, errorCode: 'cli_error', errorMessage: apiError };
  if (r?.isError) return { ...base, ...keep, errorCode: r.subtype && r.subtype !== 'success' ? r.subtype : 'cli_error', errorMessage: r.text || r.errors.join('; ') || 'Qwen Code reported an error' };
  if (!r && run.exitCode === 0 && !run.timedOut) return { ...base, errorCode: 'no_result', errorMessage: `Qwen Code ended without a result line${state.plainLines.length ? `: ${state.plainLines.slice(-3).join(' / ')}` : ''}` };
  if (!r && run.exitCode !== 0 && state.plainLines.length) return { ...base, errorMessage: state.plainLines.slice(-3).join(' / ') };
  return { ...base, ...keep };
}
