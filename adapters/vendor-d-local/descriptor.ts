import { localCliAdapter } from '@service/adapter-utils';
import { VendorDLocalConfig } from './config.js';
import { executeOpenCode } from './execute.js';
import { testOpenCodeEnvironment } from './environment.js';
import { sessionCodec } from './session.js';
import { detectModel } from './detect-model.js';
import { listOpenCodeModels } from './list-models.js';
import { cliFormatter } from './cli-formatter.js';
import { uiParser } from './ui-parser.js';

export const type = 'vendor_d_local';
export const label = 'OpenCode (local)';
/** Spec 4.2: no static list — models come only from `opencode models` (see listModels). */
export const models = [];

export const agentConfigurationDoc = `# vendor_d_local — OpenCode

Runs the OpenCode CLI on this computer at every heartbeat: \`opencode run --format json\`, continuing
the agent's session with \`--session <id>\` in the same folder.

**Use when** the agent should work in a folder on this computer through any of OpenCode's providers
(models are \`provider/model\`, e.g. \`anthropic/claude-sonnet-4-5\`, \`openai/gpt-5\`, or a custom
OpenAI-compatible provider of the OpenCode configuration).

**Do not use when** the agent must run on another machine (use \`http\`), for plain scripts without a
model (use \`process\`), or when OpenCode's permissions would ask (headless runs cannot answer:
allow the tools in its configuration or set \`autoApprove\`).

Configuration: \`command\` (default \`opencode\`), \`cwd\` (absolute; sessions belong to it), \`model\`
(\`provider/model\`), \`agent\`, \`variant\`, \`autoApprove\` (\`--auto\`), \`extraArgs\`, \`env\` (provider
keys as secret references; \`OPENCODE_CONFIG_CONTENT\` for an inline configuration), \`timeoutSec\`
(300), \`graceMs\`, \`idleTimeoutSec\`, \`promptTemplate\`, \`pty\` (default true), \`helloProbe\`.

Models come only from \`opencode models\` (no static fallback; empty when the CLI is missing).
Usage is the sum of the run's steps; cost as OpenCode reports it, else priced from the model price
table, else unpriced. Errors: \`login_required\` (401/403), \`unknown_session\` (cleared and retried
once), \`rate_limited\` (429). OpenCode has no max-turns option.
`;

/**
 * Skills: OpenCode loads skills from its config folders (`~/.config/opencode`, the project's `.opencode`);
 * writing there would touch the user's own. The skill is written to a per-run directory and the
 * prompt points at it; the directory is removed after the run.
 */
export const vendorDLocalAdapter = localCliAdapter({
  type,
  label,
  models,
  agentConfigurationDoc,
  // Writable inside the sandbox: the CLI's login, sessions and settings.
  stateDirs: ['.config/opencode/', '.local/share/opencode/', '.local/state/opencode/', '.cache/opencode/', '$XDG_CONFIG_HOME/opencode/', '$XDG_DATA_HOME/opencode/', '$OPENCODE_CONFIG'],
  configSchema: VendorDLocalConfig,
  execute: executeOpenCode,
  testEnvironment: testOpenCodeEnvironment,
  listModels: () => listOpenCodeModels(),
  sessionCodec,
  detectModel,
  cliFormatter,
  uiParser,
});
