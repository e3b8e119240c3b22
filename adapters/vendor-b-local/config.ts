import { z } from 'zod';
import { AbsolutePath, EnvMap, GraceMs, TimeoutSec } from '../config-values.js';

export const SANDBOX_MODES = ['read-only', 'workspace-write', 'danger-full-access'] as const;
export const REASONING_EFFORTS = ['minimal', 'low', 'medium', 'high'] as const;

export const VendorBLocalConfig = z
  .strictObject({
    /** The Codex executable: a name on PATH or a path. */
    command: z.string().min(1).max(4096).default('codex'),
    /** Defaults to the OS temp directory. Codex threads are resumed only in the directory they were started in. */
    cwd: AbsolutePath.optional(),
    env: EnvMap.optional(),
    model: z.string().min(1).max(200).optional(),
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
    extraArgs: z.array(z.string().max(32_768)).max(100).optional(),
    timeoutSec: TimeoutSec.default(300),
    graceMs: GraceMs.default(10_000),
    idleTimeoutSec: TimeoutSec.optional(),
    promptTemplate: z.string().max(65_536).optional(),
    /** Run under a pseudo-terminal (default). Without one, the prompt goes on stdin (`-`). */
    pty: z.boolean().default(true),
    /** testEnvironment also sends a one-line hello prompt (spends a few tokens). */
    helloProbe: z.boolean().optional(),
  })
  .meta({ id: 'VendorBLocalConfig' });
export type VendorBLocalConfig = z.infer<typeof VendorBLocalConfig>;
