import { z } from 'zod';
import { ModelName, cliCommandFields, cliRunFields } from '@service/adapter-utils/config';

export const SANDBOX_MODES = ['read-only', 'workspace-write', 'danger-full-access'] as const;
export const REASONING_EFFORTS = ['minimal', 'low', 'medium', 'high'] as const;

export const VendorBLocalConfig = z
  .strictObject({
    ...cliCommandFields('codex'),
    model: ModelName.optional(),
    /**
     * Where shell commands run. `workspace-write` with network access is what a heartbeat needs:
     * the agent edits its folder and calls the Headcount API on loopback with curl.
     */
    sandbox: z.enum(SANDBOX_MODES).default('workspace-write'),
    networkAccess: z.boolean().default(true),
    /** `--dangerously-bypass-approvals-and-sandbox`: only inside an externally sandboxed machine. */
    bypassSandbox: z.boolean().default(false),
    reasoningEffort: z.enum(REASONING_EFFORTS).optional(),
    /** More `-c key=value` overrides of `~/.codex/config.toml` (value parsed as TOML). */
    configOverrides: z.array(z.string().regex(/^[A-Za-z0-9_.-]+=/, 'must be key=value').max(4096)).max(100).optional(),
    /** Codex refuses to run outside a Git repository unless told otherwise. */
    skipGitRepoCheck: z.boolean().default(true),
    ...cliRunFields(),
  })
  .meta({ id: 'VendorBLocalConfig' });
export type VendorBLocalConfig = z.infer<typeof VendorBLocalConfig>;
