import { z } from 'zod';
import { AbsolutePath, EnvMap, GraceMs, TimeoutSec } from '../config-values.js';

export const THINKING_LEVELS = ['off', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;

export const VendorFLocalConfig = z
  .strictObject({
    /** The pi executable: a name on PATH or a path. */
    command: z.string().min(1).max(4096).default('pi'),
    /** Defaults to the OS temp directory. Pi files sessions per working directory. */
    cwd: AbsolutePath.optional(),
    env: EnvMap.optional(),
    /** `--provider` (anthropic, openai, google, a custom provider of models.json...). */
    provider: z.string().min(1).max(200).optional(),
    /** `--model`: an id or pattern, `provider/id` accepted. */
    model: z.string().min(1).max(200).optional(),
    thinking: z.enum(THINKING_LEVELS).optional(),
    /** `--tools` allowlist; default pi's own (read, bash, edit, write). A heartbeat needs bash. */
    tools: z.array(z.string().min(1).max(200)).max(100).optional(),
    appendSystemPrompt: z.string().max(65_536).optional(),
    /** `--session-dir`: where pi stores and looks up sessions (default its agent directory). */
    sessionDir: AbsolutePath.optional(),
    /**
     * Pi has no turn limit of its own: the adapter counts turns in the JSON stream and stops the
     * run after this many.
     */
    maxTurns: z.int().min(1).max(10_000).optional(),
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
  .meta({ id: 'VendorFLocalConfig' });
export type VendorFLocalConfig = z.infer<typeof VendorFLocalConfig>;
