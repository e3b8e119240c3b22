import os from 'node:os';
import { createEphemeralSkillsDir, runCli, usageReport, type EphemeralSkillsDir, type ExecutionContext, type ExecutionResult } from '@service/adapter-utils';
import { VendorCLocalConfig } from './config.js';
import { geminiArgs } from './args.js';
import { sessionCodec } from './session.js';
import { GeminiStreamState } from './parse.js';
import { classifyGeminiError } from './errors.js';
import { skillsPromptNote } from './skills.js';

/** No self-update or relaunch in the middle of a heartbeat. */
const RUN_ENV = { GEMINI_CLI_NO_RELAUNCH: 'true', NO_UPDATE_NOTIFIER: '1' };

/**
 * One heartbeat of the Gemini CLI: headless `gemini --output-format stream-json`, resuming the
 * stored session of the same directory. Under a PTY the prompt is `-p <prompt>` (a terminal on
 * stdin would start the interactive UI); with pipes it is read from stdin.
 */
export async function executeGemini(ctx: ExecutionContext): Promise<ExecutionResult> {
  const config = VendorCLocalConfig.parse(ctx.config);
  const cwd = config.cwd ?? os.tmpdir();
  const stored = sessionCodec.deserialize(ctx.runtime.sessionParams);
  const resume = stored && (stored.cwd === null || stored.cwd === cwd) ? stored.sessionId : null;
  let skills: EphemeralSkillsDir | null = null;
  const state = new GeminiStreamState();
  try {
    if (ctx.runtime.skills?.length) skills = createEphemeralSkillsDir({ skills: ctx.runtime.skills, skillsSubdir: 'skills' });
    const args = geminiArgs({ config, resumeSessionId: resume, skillsRoot: skills?.root ?? null });
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
      args: config.pty ? [...args, '--prompt', prompt] : args,
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
    return toResult(state, run, cwd, config.model ?? null);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    return { exitCode: null, timedOut: false, errorCode: typeof code === 'string' ? code : 'execution_error', errorMessage: (err as Error).message };
  } finally {
    skills?.cleanup();
  }
}

function toResult(state: GeminiStreamState, run: { exitCode: number | null; signal: string | null; timedOut: boolean; idleTimedOut: boolean }, cwd: string, configModel: string | null): ExecutionResult {
  const r = state.result;
  const u = r?.usage;
  const usage =
    u && u.input + u.output > 0
      ? usageReport({ provider: 'google', model: state.model ?? configModel ?? 'unknown', inputTokens: Math.max(0, u.input - u.cached), outputTokens: u.output, cachedInputTokens: u.cached })
      : null;
  const error = classifyGeminiError(state);
  const failed = r !== null && r.status !== 'success';
  const base: ExecutionResult = { exitCode: run.exitCode, signal: run.signal, timedOut: run.timedOut, usage, summary: state.assistantText.trim() || null };
  if (error?.code === 'unknown_session') return { ...base, ...error.toResult(), sessionParams: null };
  const keep = state.sessionId ? { sessionParams: sessionCodec.serialize({ sessionId: state.sessionId, cwd }) as Record<string, unknown> } : {};
  if (run.idleTimedOut) return { ...base, ...keep, errorCode: 'idle_timeout', errorMessage: 'The Gemini CLI printed nothing for too long' };
  if (error) return { ...base, ...keep, ...error.toResult() };
  if (failed) return { ...base, ...keep, errorCode: 'cli_error', errorMessage: r.errorMessage || `The Gemini CLI ended with status ${r.status}` };
  if (!r && run.exitCode === 0 && !run.timedOut) return { ...base, errorCode: 'no_result', errorMessage: `The Gemini CLI ended without a result line${state.plainLines.length ? `: ${state.plainLines.slice(-3).join(' / ')}` : ''}` };
  if (!r && run.exitCode !== 0 && state.plainLines.length) return { ...base, errorMessage: state.plainLines.slice(-3).join(' / ') };
  return { ...base, ...keep };
}
