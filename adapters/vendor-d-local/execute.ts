import os from 'node:os';
import { createEphemeralSkillsDir, runCli, usageReport, type EphemeralSkillsDir, type ExecutionContext, type ExecutionResult } from '@service/adapter-utils';
import { VendorDLocalConfig } from './config.js';
import { opencodeArgs } from './args.js';
import { sessionCodec } from './session.js';
import { OpenCodeStreamState } from './parse.js';
import { classifyOpenCodeError } from './errors.js';
import { skillsPromptNote } from './skills.js';
import { detectModel } from './detect-model.js';

/** No self-update in the middle of a heartbeat. */
const RUN_ENV = { OPENCODE_DISABLE_AUTOUPDATE: '1' };

/**
 * One heartbeat of OpenCode: `opencode run --format json`, continuing the stored session of the
 * same directory with `--session`. The prompt is the message argument, after `--`.
 */
export async function executeOpenCode(ctx: ExecutionContext): Promise<ExecutionResult> {
  const config = VendorDLocalConfig.parse(ctx.config);
  const cwd = config.cwd ?? os.tmpdir();
  const stored = sessionCodec.deserialize(ctx.runtime.sessionParams);
  const resume = stored && (stored.cwd === null || stored.cwd === cwd) ? stored.sessionId : null;
  let skills: EphemeralSkillsDir | null = null;
  const state = new OpenCodeStreamState();
  try {
    if (ctx.runtime.skills?.length) skills = createEphemeralSkillsDir({ skills: ctx.runtime.skills, skillsSubdir: 'skills' });
    const args = opencodeArgs(config, resume);
    const prompt = ctx.runtime.prompt + (skills ? skillsPromptNote(skills.files) : '');
    const model = config.model ?? (await detectModel({ ...process.env, ...ctx.runtime.env })).model;
    let announced = false;
    const onLine = (line: string) => {
      state.push(line);
      if (!announced && state.sessionId) {
        announced = true;
        ctx.onMeta({ sessionId: state.sessionId, model, resumed: resume !== null });
      }
    };
    const run = await runCli(ctx, {
      command: config.command,
      args: [...args, '--', prompt],
      metaArgs: args,
      cwd,
      env: { ...RUN_ENV, SERVICE_PROMPT: ctx.runtime.prompt },
      pty: config.pty,
      timeoutSec: config.timeoutSec,
      graceMs: config.graceMs,
      ...(config.idleTimeoutSec ? { idleTimeoutSec: config.idleTimeoutSec } : {}),
      onLine,
      onStderrLine: (line) => state.push(line),
    });
    return toResult(state, run, cwd, model);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    return { exitCode: null, timedOut: false, errorCode: typeof code === 'string' ? code : 'execution_error', errorMessage: (err as Error).message };
  } finally {
    skills?.cleanup();
  }
}

function toResult(state: OpenCodeStreamState, run: { exitCode: number | null; signal: string | null; timedOut: boolean; idleTimedOut: boolean }, cwd: string, model: string | null): ExecutionResult {
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
  const error = classifyOpenCodeError(state);
  const base: ExecutionResult = { exitCode: run.exitCode, signal: run.signal, timedOut: run.timedOut, usage, summary: state.lastText || null };
  if (error?.code === 'unknown_session') return { ...base, ...error.toResult(), sessionParams: null };
  const keep = state.sessionId ? { sessionParams: sessionCodec.serialize({ sessionId: state.sessionId, cwd }) as Record<string, unknown> } : {};
  if (run.idleTimedOut) return { ...base, ...keep, errorCode: 'idle_timeout', errorMessage: 'OpenCode printed nothing for too long' };
  if (error) return { ...base, ...keep, ...error.toResult() };
  const failure = state.errors.at(-1);
  if (failure) return { ...base, ...keep, errorCode: 'cli_error', errorMessage: `${failure.name}: ${failure.message}` };
  if (state.steps === 0 && run.exitCode === 0 && !run.timedOut) return { ...base, errorCode: 'no_result', errorMessage: `OpenCode ended without finishing a step${state.plainLines.length ? `: ${state.plainLines.slice(-3).join(' / ')}` : ''}` };
  if (state.steps === 0 && run.exitCode !== 0 && state.plainLines.length) return { ...base, errorMessage: state.plainLines.slice(-3).join(' / ') };
  return { ...base, ...keep };
}
