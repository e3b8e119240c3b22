import { z } from 'zod';
import { AbsolutePath, EnvMap, GraceMs, TimeoutSec } from '../config-values.js';

export const PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'dontAsk', 'auto', 'bypassPermissions'] as const;

/** The tools a heartbeat needs by default: shell (curl to the API), reading and editing files. */
export const DEFAULT_ALLOWED_TOOLS = ['Bash', 'Read', 'Edit', 'Write', 'Glob', 'Grep'];

export const VendorALocalConfig = z
  .strictObject({
    /** The Claude Code executable: a name on PATH or a path. */
    command: z.string().min(1).max(4096).default('claude'),
    /** Defaults to the OS temp directory. Sessions are per directory: changing it starts fresh. */
    cwd: AbsolutePath.optional(),
    env: EnvMap.optional(),
    model: z.string().min(1).max(200).optional(),
    appendSystemPrompt: z.string().max(65_536).optional(),
    maxTurns: z.int().min(1).max(10_000).optional(),
    permissionMode: z.enum(PERMISSION_MODES).default('default'),
    /**
     * Tools the agent may use without asking (`Bash`, `Bash(curl *)`, `Edit`...). Headless runs
     * cannot answer permission prompts, and as root Claude Code refuses to skip them, so the
     * tools must be allowed explicitly.
     */
    allowedTools: z.array(z.string().min(1).max(500)).max(200).default(DEFAULT_ALLOWED_TOOLS),
    disallowedTools: z.array(z.string().min(1).max(500)).max(200).optional(),
    /** More arguments, placed before the prompt. */
    extraArgs: z.array(z.string().max(32_768)).max(100).optional(),
    timeoutSec: TimeoutSec.default(300),
    graceMs: GraceMs.default(10_000),
    idleTimeoutSec: TimeoutSec.optional(),
    promptTemplate: z.string().max(65_536).optional(),
    /** Run under a pseudo-terminal (default). Without one, the prompt goes on stdin. */
    pty: z.boolean().default(true),
    /** testEnvironment also sends a one-line hello prompt (spends a few tokens). */
    helloProbe: z.boolean().optional(),
  })
  .meta({ id: 'VendorALocalConfig' });
export type VendorALocalConfig = z.infer<typeof VendorALocalConfig>;
