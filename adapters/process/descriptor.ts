import { z } from 'zod';
import type { AdapterDescriptor } from '@service/adapter-utils';
import { AbsolutePath, EnvMap, GraceMs, TimeoutSec } from '@service/adapter-utils/config';
import { executeProcess, testProcessEnvironment } from './execute.js';

export const ProcessAdapterConfig = z
  .strictObject({
    command: z.string().min(1).max(4096),
    args: z.array(z.string().max(32_768)).max(512).optional(),
    /** Defaults to the OS temp directory (`/tmp` on Linux and macOS) when absent. */
    cwd: AbsolutePath.optional(),
    env: EnvMap.optional(),
    timeoutSec: TimeoutSec.default(300),
    graceMs: GraceMs.default(10_000),
    /** Fails the run when it prints nothing for this long; off when absent. */
    idleTimeoutSec: TimeoutSec.optional(),
    promptTemplate: z.string().max(65_536).optional(),
    /** Run under a pseudo-terminal instead of pipes (stdout and stderr then arrive as one stream). */
    pty: z.boolean().optional(),
  })
  .meta({ id: 'ProcessAdapterConfig' });

export const processAdapter: AdapterDescriptor = {
  type: 'process',
  label: 'Process',
  models: [],
  configSchema: ProcessAdapterConfig,
  execute: executeProcess,
  testEnvironment: testProcessEnvironment,
  agentConfigurationDoc: `# process adapter

Runs a command on this computer at every heartbeat, with the run's \`SERVICE_*\` environment.

**Use when** the agent is a script or program of your own that talks to the Headcount API itself,
or a CLI that no dedicated adapter covers.

**Do not use when** a dedicated coding-agent adapter exists for the CLI (it parses usage, cost and
sessions), or when the agent runs on another machine (use \`http\`).

Configuration: \`command\` (required), \`args\`, \`cwd\` (absolute; default the temp directory),
\`env\` (values or secret references), \`timeoutSec\` (default 300), \`graceMs\` (default 10000),
\`promptTemplate\`, \`pty\` (run under a terminal), \`idleTimeoutSec\` (fail a run silent that long). The prompt arrives on stdin and in
\`SERVICE_PROMPT\`.
`,
};
