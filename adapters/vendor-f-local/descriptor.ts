import { localCliAdapter } from '@service/adapter-utils';
import { VendorFLocalConfig } from './config.js';
import { executePi } from './execute.js';
import { testPiEnvironment } from './environment.js';
import { sessionCodec } from './session.js';
import { detectModel } from './detect-model.js';
import { PI_MODELS } from './models.js';
import { listPiModels } from './list-models.js';
import { cliFormatter } from './cli-formatter.js';
import { uiParser } from './ui-parser.js';

export const type = 'vendor_f_local';
export const label = 'Pi coding agent (local)';
export const models = PI_MODELS;

export const agentConfigurationDoc = `# vendor_f_local — Pi coding agent

Runs the pi coding agent on this computer at every heartbeat: \`pi -p --mode json\`, resuming the
agent's session for the same task (\`--session <id>\`).

**Use when** the agent works in a folder on this computer with a model of your choice — any
provider pi knows (Anthropic, OpenAI, Google, OpenRouter...) or your own OpenAI- or
Anthropic-compatible server declared in pi's models.json (Ollama, vLLM, a proxy).

**Do not use when** the agent must run on another machine (use \`http\` or \`vendor_h_gateway\`),
when you want a vendor's own CLI (Claude Code, Codex...), or for plain scripts (use \`process\`).

Configuration: \`command\` (default \`pi\`), \`cwd\` (absolute; sessions belong to it),
\`provider\`, \`model\` (\`provider/id\` accepted), \`thinking\` (off…xhigh), \`tools\` (allowlist;
a heartbeat needs \`bash\`, and \`read\` is added so pi offers the heartbeat skill), \`appendSystemPrompt\`, \`sessionDir\`, \`maxTurns\` (pi has no limit:
the adapter stops the run after that many turns), \`extraArgs\`, \`env\` (provider keys as secret
references; \`PI_CODING_AGENT_DIR\` for another settings/models directory), \`timeoutSec\` (300),
\`graceMs\`, \`idleTimeoutSec\`, \`promptTemplate\`, \`pty\` (default true).

Usage and cost (as pi prices it from its model registry, else from Headcount's price table, else
unpriced), session id and the final answer are recorded on the run. Errors: \`login_required\`
(with a hint), \`unknown_session\` (cleared and retried once), \`rate_limited\`, \`max_turns\`.
`;

/**
 * Skills: The product skill, written per run to a temp directory passed with `--skill`. Nothing to write:
 * the user's ~/.pi/agent/skills stay untouched.
 */
export const vendorFLocalAdapter = localCliAdapter({
  type,
  label,
  models,
  agentConfigurationDoc,
  // Writable inside the sandbox: the CLI's login, sessions and settings.
  stateDirs: ['.pi/', '$PI_CODING_AGENT_DIR/'],
  listModels: () => listPiModels(),
  configSchema: VendorFLocalConfig,
  execute: executePi,
  testEnvironment: testPiEnvironment,
  sessionCodec,
  detectModel,
  cliFormatter,
  uiParser,
});
