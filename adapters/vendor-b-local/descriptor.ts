import { localCliAdapter } from '@service/adapter-utils';
import { VendorBLocalConfig } from './config.js';
import { executeCodex } from './execute.js';
import { testCodexEnvironment } from './environment.js';
import { sessionCodec } from './session.js';
import { detectModel } from './detect-model.js';
import { listCodexModels } from './list-models.js';
import { CODEX_MODELS } from './models.js';
import { cliFormatter } from './cli-formatter.js';
import { uiParser } from './ui-parser.js';

export const type = 'vendor_b_local';
export const label = 'Codex CLI (local)';
export const models = CODEX_MODELS;

export const agentConfigurationDoc = `# vendor_b_local — Codex CLI

Runs OpenAI's Codex CLI on this computer at every heartbeat: \`codex exec --json\`, and
\`codex exec --json resume <thread id>\` to continue the agent's thread in the same folder.

**Use when** the agent writes or changes code and runs commands in a folder on this computer, and
Codex is logged in (\`codex login\`) or an OpenAI API key — or another provider configured in
\`~/.codex/config.toml\` — is available.

**Do not use when** the agent must run on another machine (use \`http\`), for plain scripts
without a model (use \`process\`), or when the folder must not be written to by a model.

Configuration: \`command\` (default \`codex\`), \`cwd\` (absolute; threads belong to it), \`model\`,
\`sandbox\` (\`read-only\`, \`workspace-write\` — the default —, \`danger-full-access\`),
\`networkAccess\` (default true: the agent calls the Headcount API with curl), \`bypassSandbox\`
(only on an externally sandboxed machine), \`reasoningEffort\`, \`configOverrides\` (\`-c key=value\`),
\`skipGitRepoCheck\` (default true), \`extraArgs\`, \`env\` (e.g. \`OPENAI_API_KEY\` as a secret
reference), \`timeoutSec\` (300), \`graceMs\`, \`idleTimeoutSec\`, \`promptTemplate\`, \`pty\` (default
true; without a terminal the prompt goes on stdin), \`helloProbe\`.

Models: the static list merged with the configured provider's \`GET /models\` when reachable.
Usage (input, cached, output) is recorded per heartbeat — Codex reports a resumed thread's totals,
so the adapter subtracts the previous heartbeat's — and priced from the model price table (Codex
reports no cost; unknown models are marked unpriced). Errors: \`login_required\`, \`unknown_session\`
(the thread is forgotten and the run retried once), \`rate_limited\` (with the reset time when
Codex gives one). Codex has no max-turns option.
`;

/**
 * Skills: Codex 0.169 reads skills only from `~/.agents/skills` and `$CODEX_HOME/skills` and has no flag
 * for another root, so the skill is written to a per-run directory (readable through `--add-dir`)
 * and the prompt points at it: the user's own skill folders are never written to.
 */
export const vendorBLocalAdapter = localCliAdapter({
  type,
  label,
  models,
  agentConfigurationDoc,
  // Writable inside the sandbox: the CLI's login, sessions and settings.
  stateDirs: ['.codex/', '$CODEX_HOME/'],
  configSchema: VendorBLocalConfig,
  execute: executeCodex,
  testEnvironment: testCodexEnvironment,
  listModels: () => listCodexModels(),
  sessionCodec,
  detectModel,
  cliFormatter,
  uiParser,
});
