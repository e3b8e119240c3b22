import type { AdapterModel, ServerAdapterModule } from '@service/adapter-utils';
import { configSchema, MODES } from './config.js';
import { executeAmp, sessionCodec } from './execute.js';
import { testAmpEnvironment, TYPE } from './environment.js';

export const type = TYPE;
export const label = 'Amp (plugin)';

/** Amp chooses the model behind each mode itself; these are the modes it accepts. */
export const models: AdapterModel[] = MODES.map((id) => ({ id, label: `Amp ${id} mode` }));

export const agentConfigurationDoc = `# vendor_i_local — Amp CLI (adapter plugin)

Runs the Amp coding agent (\`amp --execute <prompt> --stream-json\`) on this computer at every
heartbeat, resuming the agent's Amp thread (\`amp threads continue <thread>\`) on the next one.

**Use when** the founder uses Amp (ampcode.com) and wants an agent to work in a local checkout
with Amp's tools, billed to their Amp account.

**Do not use when** Amp is not installed or logged in on this computer, when the agent must run
on another machine (use \`http\`), or when a per-token API cost is required: Amp does not report
cost, so runs are priced from the price table only if \`priceAsModel\` (or Amp itself) names a
model, and are marked unpriced otherwise.

Configuration: \`command\` (default \`amp\`), \`args\` (extra arguments), \`cwd\` (absolute; default
the temp directory), \`env\` (values or secret references; \`AMP_API_KEY\` authenticates),
\`model\` (the Amp mode: ${MODES.join(', ')}), \`priceAsModel\`, \`dangerouslyAllowAll\` (default
true), \`timeoutSec\` (default 300), \`graceMs\` (default 10000), \`idleTimeoutSec\`,
\`promptTemplate\`, \`pty\` (default true), \`helloProbe\` (environment test sends one prompt).
`;

/** The package-root function of the module contract (spec 2.9). */
export function createServerAdapter(): ServerAdapterModule & { label: string; configSchema: typeof configSchema } {
  return {
    type,
    label,
    models,
    agentConfigurationDoc,
    configSchema,
    execute: executeAmp,
    testEnvironment: testAmpEnvironment,
    // Writable inside the sandbox: Amp's login, settings and threads.
    stateDirs: ['.config/amp/', '.local/share/amp/', '.cache/amp/'],
    sessionCodec: sessionCodec as unknown as NonNullable<ServerAdapterModule['sessionCodec']>,
  };
}
