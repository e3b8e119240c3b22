import { z } from 'zod';
import { AbsolutePath, EnvMap, GraceMs, TimeoutSec } from './config-values.js';

/**
 * The configuration every local agent CLI shares, in two parts so each adapter's own fields stand
 * between them (the board's form follows the schema's order): what to run and where, then how.
 */
export function cliCommandFields(defaultCommand: string) {
  return {
    /** The executable: a name on PATH or a path. */
    command: z.string().min(1).max(4096).default(defaultCommand),
    /** Defaults to the OS temp directory. The CLIs keep sessions per directory: changing it starts fresh. */
    cwd: AbsolutePath.optional(),
    env: EnvMap.optional(),
  };
}

export const ModelName = z.string().min(1).max(200);
export const AppendSystemPrompt = z.string().max(65_536);
export const MaxTurns = z.int().min(1).max(10_000);
export const ToolNames = z.array(z.string().min(1).max(500)).max(200);

export function cliRunFields(defaults: { timeoutSec?: number } = {}) {
  return {
    /** More arguments, placed before the prompt. */
    extraArgs: z.array(z.string().max(32_768)).max(100).optional(),
    timeoutSec: TimeoutSec.default(defaults.timeoutSec ?? 300),
    graceMs: GraceMs.default(10_000),
    idleTimeoutSec: TimeoutSec.optional(),
    promptTemplate: z.string().max(65_536).optional(),
    /** Run under a pseudo-terminal (default). Without one, the prompt goes on stdin. */
    pty: z.boolean().default(true),
    /** testEnvironment also sends a one-line hello prompt (spends a few tokens). */
    helloProbe: z.boolean().optional(),
  };
}

/** What the harness reads of any CLI adapter's parsed configuration. */
export interface CliRunConfig {
  command: string;
  cwd?: string | undefined;
  timeoutSec: number;
  graceMs: number;
  idleTimeoutSec?: number | undefined;
  pty: boolean;
  helloProbe?: boolean | undefined;
  model?: string | undefined;
}
