import { z } from 'zod';
import { AbsolutePath, EnvMap, GraceMs, TimeoutSec } from '../config-values.js';

export const CURSOR_MODES = ['agent', 'plan', 'ask'] as const;

export const VendorEConfig = z
  .strictObject({
    /** The Cursor agent executable (`cursor-agent`, or `agent` in newer installs): a name on PATH or a path. */
    command: z.string().min(1).max(4096).default('cursor-agent'),
    /** The workspace (`--workspace`); defaults to the OS temp directory. Chats belong to it. */
    cwd: AbsolutePath.optional(),
    env: EnvMap.optional(),
    /** `--model` (auto, sonnet-4.5, gpt-5, opus-4.1...). */
    model: z.string().min(1).max(200).optional(),
    /** `agent` (default, may edit and run commands), `plan` or `ask` (read-only). */
    mode: z.enum(CURSOR_MODES).default('agent'),
    /**
     * `--force`: run commands without asking. A headless run cannot answer an approval prompt, so a
     * heartbeat that calls the API with curl needs it (deny rules in cli-config.json still apply).
     */
    force: z.boolean().default(true),
    /** `--approve-mcps`: start the workspace's MCP servers without asking. */
    approveMcps: z.boolean().default(false),
    /** Cursor has no turn limit: the adapter counts model calls and stops the run after this many. */
    maxTurns: z.int().min(1).max(10_000).optional(),
    extraArgs: z.array(z.string().max(32_768)).max(100).optional(),
    timeoutSec: TimeoutSec.default(600),
    graceMs: GraceMs.default(10_000),
    idleTimeoutSec: TimeoutSec.optional(),
    promptTemplate: z.string().max(65_536).optional(),
    /** Run under a pseudo-terminal (default). Without one, the prompt goes on stdin. */
    pty: z.boolean().default(true),
    /** testEnvironment also sends a one-line hello prompt (spends a few tokens). */
    helloProbe: z.boolean().optional(),
  })
  .meta({ id: 'VendorEConfig' });
export type VendorEConfig = z.infer<typeof VendorEConfig>;
