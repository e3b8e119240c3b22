import os from 'node:os';
import {
  asNumber,
  asString,
  runEnv,
  checkCommand,
  checkCwd,
  environmentResult,
  probeEnv,
  runChildProcess,
  type EnvironmentTestContext,
  type EnvironmentTestResult,
  type ExecutionContext,
  type ExecutionResult,
} from '@service/adapter-utils';

/**
 * Runs the configured command once per heartbeat. The prompt arrives on stdin and in
 * `SERVICE_PROMPT`; the run's `SERVICE_*` variables and the resolved `env` are set. Timeout and
 * grace always apply (defaults 300 s and 10 s).
 */
export async function executeProcess(ctx: ExecutionContext): Promise<ExecutionResult> {
  const command = asString(ctx.config.command);
  const args = Array.isArray(ctx.config.args) ? ctx.config.args.map((a) => asString(a)) : [];
  const cwd = asString(ctx.config.cwd) || os.tmpdir();
  const env = runEnv(ctx, { SERVICE_PROMPT: ctx.runtime.prompt });
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

/** cwd (absolute, existing) and command (on PATH or a path) — `process` starts nothing to test. */
export async function testProcessEnvironment(ctx: EnvironmentTestContext): Promise<EnvironmentTestResult> {
  const command = asString(ctx.config.command);
  const cwd = asString(ctx.config.cwd) || os.tmpdir();
  const env = probeEnv(ctx);
  const { check } = checkCommand(command, env, 'Install the command or give its absolute path.');
  return environmentResult('process', [checkCwd(cwd), check]);
}
