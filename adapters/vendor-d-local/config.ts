import { z } from 'zod';
import { AbsolutePath, EnvMap, GraceMs, TimeoutSec } from '../config-values.js';

/** OpenCode model ids are `provider/model` (the model part may itself contain slashes). */
export const ProviderModel = z.string().regex(/^[A-Za-z0-9][\w.-]*\/\S+$/, 'must be provider/model').max(200);

export const VendorDLocalConfig = z
  .strictObject({
    /** The OpenCode executable: a name on PATH or a path. */
    command: z.string().min(1).max(4096).default('opencode'),
    /** Defaults to the OS temp directory. */
    cwd: AbsolutePath.optional(),
    env: EnvMap.optional(),
    model: ProviderModel.optional(),
    /** An OpenCode agent (`build`, `plan`, or one of the user's). */
    agent: z.string().min(1).max(100).optional(),
    /** Provider-specific reasoning effort (`--variant`: high, max, minimal...). */
    variant: z.string().min(1).max(50).optional(),
    /** `--auto`: approve every permission not explicitly denied (headless runs cannot ask). */
    autoApprove: z.boolean().default(false),
    extraArgs: z.array(z.string().max(32_768)).max(100).optional(),
    timeoutSec: TimeoutSec.default(300),
    graceMs: GraceMs.default(10_000),
    idleTimeoutSec: TimeoutSec.optional(),
    promptTemplate: z.string().max(65_536).optional(),
    /** Run under a pseudo-terminal (default). */
    pty: z.boolean().default(true),
    /** testEnvironment also sends a one-line hello prompt (spends a few tokens). */
    helloProbe: z.boolean().optional(),
  })
  .meta({ id: 'VendorDLocalConfig' });
export type VendorDLocalConfig = z.infer<typeof VendorDLocalConfig>;
