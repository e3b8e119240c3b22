import { localCliAdapter } from '@service/adapter-utils';
import { VendorCLocalConfig } from './config.js';
import { executeGemini } from './execute.js';
import { testGeminiEnvironment } from './environment.js';
import { sessionCodec } from './session.js';
import { detectModel } from './detect-model.js';
import { GEMINI_MODELS } from './models.js';
import { cliFormatter } from './cli-formatter.js';
import { uiParser } from './ui-parser.js';

export const type = 'vendor_c_local';
export const label = 'Gemini CLI (local, experimental)';
export const models = GEMINI_MODELS;

export const agentConfigurationDoc = `# vendor_c_local — Gemini CLI (experimental)

Runs Google's Gemini CLI on this computer at every heartbeat:
\`gemini --output-format stream-json --approval-mode yolo --skip-trust\`, resuming the agent's session
with \`--resume <session id>\` in the same folder.

**Experimental**: this type is not in the stable type enum. Creating or reconfiguring an agent of
this type needs \`"enableExperimental": true\` in its \`adapterConfig\`; without it the API answers
400 \`experimental_adapter\`.

**Use when** the agent should work with a Gemini model in a folder on this computer and the Gemini
CLI is logged in with Google or has \`GEMINI_API_KEY\` (or Vertex AI settings) in the agent env.

**Do not use when** the agent must be dependable in production (use a stable type), must run on
another machine (use \`http\`), or runs plain scripts (use \`process\`).

Configuration: \`enableExperimental\` (must be true), \`command\` (default \`gemini\`), \`cwd\` (absolute;
sessions belong to it), \`model\`, \`approvalMode\` (default \`yolo\`: headless runs cannot approve),
\`skipTrust\` (default true), \`includeDirectories\`, \`extraArgs\`, \`env\` (\`GEMINI_API_KEY\` as a secret
reference; \`GOOGLE_GEMINI_BASE_URL\` for a gateway, with \`security.auth.selectedType\` set in
~/.gemini/settings.json), \`timeoutSec\` (300), \`graceMs\`, \`idleTimeoutSec\`, \`promptTemplate\`, \`pty\`
(default true; without a terminal the prompt goes on stdin), \`helloProbe\`.

Usage (input, cached, output) comes from the result's stats and is priced from the model price
table (the CLI reports no cost; unknown models are marked unpriced). Errors: \`login_required\`,
\`unknown_session\` (cleared and retried once), \`rate_limited\` (with the API's retry delay),
\`max_turns\` (the \`model.maxSessionTurns\` setting).
`;

/**
 * Skills: The Gemini CLI loads skills from `~/.gemini/skills` and the project's `.gemini/skills` only;
 * writing there would touch the user's own folders. The skill is written to a per-run directory
 * added to the workspace (`--include-directories`, so its read tool may open it) and the prompt
 * points at it.
 */
export const vendorCLocalAdapter = localCliAdapter({
  type,
  label,
  models,
  agentConfigurationDoc,
  // Writable inside the sandbox: the CLI's login, sessions and settings.
  stateDirs: ['.gemini/'],
  configSchema: VendorCLocalConfig,
  experimental: true,
  execute: executeGemini,
  testEnvironment: testGeminiEnvironment,
  sessionCodec,
  detectModel,
  cliFormatter,
  uiParser,
});
