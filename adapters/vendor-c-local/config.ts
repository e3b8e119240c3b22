import { z } from 'zod';
import { AbsolutePath, EnvMap, GraceMs, TimeoutSec } from '../config-values.js';

export const APPROVAL_MODES = ['default', 'auto_edit', 'yolo', 'plan'] as const;

export const VendorCLocalConfig = z
  .strictObject({
    /**
     * The explicit opt-in an experimental adapter type requires (checked when an agent is created
     * or its configuration changed): without it the API answers 400 `experimental_adapter`.
     */
    enableExperimental: z.boolean().optional(),
    /** The Gemini CLI executable: a name on PATH or a path. */
    command: z.string().min(1).max(4096).default('gemini'),
    /** Defaults to the OS temp directory. Sessions are per project directory. */
    cwd: AbsolutePath.optional(),
    env: EnvMap.optional(),
    model: z.string().min(1).max(200).optional(),
    /** Headless runs cannot answer approval prompts: `yolo` (default) lets the agent use its tools. */
    approvalMode: z.enum(APPROVAL_MODES).default('yolo'),
    /** `--skip-trust`: an untrusted folder would otherwise stop a headless run. */
    skipTrust: z.boolean().default(true),
    includeDirectories: z.array(AbsolutePath).max(50).optional(),
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
  .meta({ id: 'VendorCLocalConfig' });
export type VendorCLocalConfig = z.infer<typeof VendorCLocalConfig>;
