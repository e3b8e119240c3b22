import { localCliAdapter } from '@service/adapter-utils';
import { VendorEConfig } from './config.js';
import { executeCursor } from './execute.js';
import { testCursorEnvironment } from './environment.js';
import { sessionCodec } from './session.js';
import { detectModel } from './detect-model.js';
import { CURSOR_MODELS } from './models.js';
import { cliFormatter } from './cli-formatter.js';
import { uiParser } from './ui-parser.js';

export const type = 'vendor_e';
export const label = 'Cursor agent (local CLI)';
export const models = CURSOR_MODELS;

export const agentConfigurationDoc = `# vendor_e — Cursor agent CLI

Runs the Cursor agent CLI headless on this computer at every heartbeat:
\`cursor-agent -p --output-format stream-json --workspace <cwd>\`, resuming the agent's chat for the
same task (\`--resume <chatId>\`).

**Use when** the founder has a Cursor subscription (or a Cursor API key) and wants the agent to
work in a folder on this computer with Cursor's models and rules.

**Do not use when** the Cursor CLI is not installed (it comes from cursor.com's install script, not
npm), the agent must run on another machine (use \`vendor_h_gateway\` or \`http\`), or you need
per-call cost reporting (Cursor reports tokens only: the cost is priced from Headcount's table when
the model is known, else the run is unpriced).

Configuration: \`command\` (default \`cursor-agent\`; \`agent\` in newer installs), \`cwd\` (the
workspace; chats belong to it), \`model\` (auto, sonnet-4.5, gpt-5...), \`mode\` (agent, plan, ask),
\`force\` (default true: a headless run cannot approve commands), \`approveMcps\`, \`maxTurns\`
(Cursor has no limit: the adapter stops after that many model calls), \`extraArgs\`, \`env\`
(\`CURSOR_API_KEY\` as a secret reference), \`timeoutSec\` (600), \`graceMs\`, \`idleTimeoutSec\`,
\`promptTemplate\`, \`pty\` (default true). The heartbeat skill is put in the prompt of each run.

Errors: \`login_required\` (with a hint), \`unknown_session\` (cleared and retried once),
\`rate_limited\` (with the reset time when Cursor gives one), \`max_turns\`.
`;

export const vendorEAdapter = localCliAdapter({
  type,
  label,
  models,
  agentConfigurationDoc,
  // Writable inside the sandbox: the CLI's login, sessions and settings.
  stateDirs: ['.cursor/', '.config/cursor/', '$CURSOR_CONFIG_DIR/'],
  configSchema: VendorEConfig,
  execute: executeCursor,
  testEnvironment: testCursorEnvironment,
  sessionCodec,
  detectModel,
  cliFormatter,
  uiParser,
});
