import { captureOutput } from './capture-output.js';
import { resolveCommand } from './resolve-command.js';

/** How a model list asks the installed CLI: which command, and the agent environment it runs in. */
export interface ListModelsOptions {
  command?: string;
  env?: Record<string, string | undefined>;
}

export interface CliModelsQuery {
  command: string;
  args: string[];
  /** The agent environment; the server's own is used only to find the command. */
  env?: Record<string, string | undefined>;
  /** Added for this query (e.g. no self-update). */
  extraEnv?: Record<string, string>;
  timeoutMs: number;
  /** The CLI prints its list on stderr too. */
  stderr?: boolean;
}

/**
 * What a CLI prints when asked for its models (`opencode models`, `pi --list-models`); null when
 * the command is not found, fails or times out, so each adapter picks its own fallback.
 */
export async function cliModelsOutput(q: CliModelsQuery): Promise<string | null> {
  const env = Object.fromEntries(Object.entries({ ...process.env, ...q.env }).filter((e): e is [string, string] => typeof e[1] === 'string'));
  const resolved = resolveCommand(q.command, env);
  if (!resolved) return null;
  try {
    const { out, exitCode } = await captureOutput(resolved, {
      args: q.args,
      // The probe gets the built agent environment (runChildProcess), never the server's whole one.
      env: { ...(q.env ?? {}), ...q.extraEnv } as Record<string, string>,
      timeoutMs: q.timeoutMs,
      stderr: q.stderr === true,
    });
    return exitCode === 0 ? out : null;
  } catch {
    return null;
  }
}
