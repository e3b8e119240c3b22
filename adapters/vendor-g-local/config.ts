import { z } from 'zod';
import { AbsolutePath, EnvMap, GraceMs, TimeoutSec } from '../config-values.js';

export const APPROVAL_MODES = ['plan', 'default', 'auto-edit', 'yolo'] as const;
export const AUTH_TYPES = ['openai', 'anthropic', 'qwen-oauth', 'gemini', 'vertex-ai'] as const;

export const VendorGLocalConfig = z
  .strictObject({
    /** The Qwen Code executable: a name on PATH or a path. */
    command: z.string().min(1).max(4096).default('qwen'),
    /** Defaults to the OS temp directory. Sessions are per project directory. */
    cwd: AbsolutePath.optional(),
    env: EnvMap.optional(),
    model: z.string().min(1).max(200).optional(),
    /** `--auth-type`; `openai` speaks any OpenAI-compatible API (OPENAI_BASE_URL, OPENAI_API_KEY). */
    authType: z.enum(AUTH_TYPES).optional(),
    /**
     * Headless runs cannot answer approval prompts: `yolo` (default) lets the agent use its shell
     * and edit tools; `auto-edit` plus `allowedTools` is the narrower choice.
     */
    approvalMode: z.enum(APPROVAL_MODES).default('yolo'),
    allowedTools: z.array(z.string().min(1).max(500)).max(200).optional(),
    excludeTools: z.array(z.string().min(1).max(500)).max(200).optional(),
    appendSystemPrompt: z.string().max(65_536).optional(),
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
  .meta({ id: 'VendorGLocalConfig' });
export type VendorGLocalConfig = z.infer<typeof VendorGLocalConfig>;
