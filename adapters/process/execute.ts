import { accessSync, constants, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  asNumber,
  asString,
  buildServiceEnv,
  runChildProcess,
  type EnvironmentTestContext,
  type EnvironmentTestResult,
  type ExecutionContext,
  type ExecutionResult,
} from '@service/adapter-utils';

/** Finds `command` the way a shell would: a path as given, else the first executable on PATH. */
export function resolveCommand(command: string, envPath = process.env.PATH ?? ''): string | null {
  const executable = (file: string) => {
    try {
      accessSync(file, constants.X_OK);
      return statSync(file).isFile();
    } catch {
      return false;
    }
  };
  if (command.includes('/') || command.includes(path.sep)) return executable(command) ? path.resolve(command) : null;
  const exts = process.platform === 'win32' ? (process.env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const dir of envPath.split(path.delimiter).filter(Boolean)) {
    for (const ext of exts) {
      const candidate = path.join(dir, command + ext);
      if (executable(candidate)) return candidate;
    }
  }
  return null;
}

/**
 * Runs the configured command once per heartbeat. The prompt arrives on stdin and in
 * `SERVICE_PROMPT`; the run's `SERVICE_*` variables and the resolved `env` are set. Timeout and
 * grace always apply (defaults 300 s and 10 s).
 */
export async function executeProcess(ctx: ExecutionContext): Promise<ExecutionResult> {
  const command = asString(ctx.config.command);
  const args = Array.isArray(ctx.config.args) ? ctx.config.args.map((a) => asString(a)) : [];
  const cwd = asString(ctx.config.cwd) || os.tmpdir();
  const env = {
    ...ctx.runtime.env,
    ...buildServiceEnv({
      apiUrl: ctx.runtime.apiUrl,
      apiKey: ctx.runtime.apiKey,
      runId: ctx.runId,
      agent: ctx.agent,
      taskId: ctx.context.taskId ?? null,
      taskTitle: ctx.context.taskTitle ?? null,
      wakeReason: ctx.runtime.wakeReason ?? null,
    }),
    SERVICE_PROMPT: ctx.runtime.prompt,
  };
  ctx.onMeta({ command, args, cwd });
  const result = await runChildProcess(command, {
    args,
    cwd,
    env,
    stdin: ctx.runtime.prompt,
    timeout: asNumber(ctx.config.timeoutSec, 300) * 1000,
    graceMs: asNumber(ctx.config.graceMs, 10_000),
    pty: ctx.config.pty === true,
    ...(ctx.config.idleTimeoutSec ? { idleTimeout: asNumber(ctx.config.idleTimeoutSec, 0) * 1000 } : {}),
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    onStdout: (chunk) => ctx.onLog('stdout', chunk),
    onStderr: (chunk) => ctx.onLog('stderr', chunk),
    onSpawn: (pid) => ctx.onMeta({ pid }),
  });
  if (result.idleTimedOut) {
    return { exitCode: result.exitCode, signal: result.signal, timedOut: false, errorCode: 'idle_timeout', errorMessage: `No output for ${asNumber(ctx.config.idleTimeoutSec, 0)} s` };
  }
  return { exitCode: result.exitCode, signal: result.signal, timedOut: result.timedOut };
}

export async function testProcessEnvironment(ctx: EnvironmentTestContext): Promise<EnvironmentTestResult> {
  const command = asString(ctx.config.command);
  const cwd = asString(ctx.config.cwd) || os.tmpdir();
  const resolved = command ? resolveCommand(command, ctx.env.PATH ?? process.env.PATH) : null;
  let cwdOk = false;
  try {
    cwdOk = statSync(cwd).isDirectory();
  } catch {
    cwdOk = false;
  }
  const checks = [
    { name: 'command', ok: resolved !== null, detail: resolved ?? `"${command}" is not an executable file or on PATH` },
    { name: 'cwd', ok: cwdOk, detail: cwdOk ? cwd : `${cwd} is not a directory` },
  ];
  const ok = checks.every((c) => c.ok);
  return { ok, checks, ...(ok ? {} : { hint: 'Install the command or give its absolute path, and point cwd at an existing folder.' }) };
}
