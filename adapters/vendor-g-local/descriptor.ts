import { localCliAdapter } from '@service/adapter-utils';
import { VendorGLocalConfig } from './config.js';
import { executeQwen } from './execute.js';
import { testQwenEnvironment } from './environment.js';
import { sessionCodec } from './session.js';
import { detectModel } from './detect-model.js';
import { QWEN_MODELS } from './models.js';
import { cliFormatter } from './cli-formatter.js';
import { uiParser } from './ui-parser.js';

export const type = 'vendor_g_local';
export const label = 'Qwen Code (local)';
export const models = QWEN_MODELS;

export const agentConfigurationDoc = `# vendor_g_local — Qwen Code

Runs Qwen Code (\`@qwen-code/qwen-code\`, the \`qwen\` command) on this computer at every heartbeat:
\`qwen --output-format stream-json --approval-mode yolo\`, resuming the agent's session with
\`--resume <session id>\` in the same folder. Why this CLI: it is a widely used agent CLI on the
npm registry, a descendant of the Gemini CLI that speaks any OpenAI-compatible API (Qwen's own
endpoints, OpenRouter, a local model server), so an agent can run on a model no other adapter reaches.

**Use when** the agent writes or changes code and runs commands in a folder on this computer with a
Qwen model or any OpenAI-compatible endpoint (\`OPENAI_BASE_URL\`, \`OPENAI_API_KEY\`, \`OPENAI_MODEL\`
in the agent env, \`authType: openai\`), or with a Qwen OAuth login.

**Do not use when** the agent must run on another machine (use \`http\`), for plain scripts without a
model (use \`process\`), or when tools must be approved one by one (headless runs cannot ask).

Configuration: \`command\` (default \`qwen\`), \`cwd\` (absolute; sessions belong to it), \`model\`,
\`authType\`, \`approvalMode\` (default \`yolo\`; \`auto-edit\` with \`allowedTools\` is narrower),
\`allowedTools\`, \`excludeTools\`, \`appendSystemPrompt\`, \`maxTurns\` (\`--max-session-turns\`),
\`extraArgs\`, \`env\`, \`timeoutSec\` (300), \`graceMs\`, \`idleTimeoutSec\`, \`promptTemplate\`, \`pty\`
(default true; without a terminal the prompt goes on stdin), \`helloProbe\`.

Usage (input, cached, output) comes from the result line and is priced from the model price table
(unknown models are marked unpriced). Errors: \`login_required\`, \`unknown_session\` (the session is
cleared and the run retried once), \`rate_limited\`, \`max_turns\`; an \`[API Error: …]\` answer is a
failure even when Qwen exits 0.
`;

/**
 * Skills: Qwen Code loads skills from `~/.qwen/skills` and the project's `.qwen/skills` only; writing
 * there would touch the user's own folders. The skill is written to a per-run directory added to
 * the workspace (`--include-directories`, so its read tool may open it) and the prompt points at
 * it.
 */
export const vendorGLocalAdapter = localCliAdapter({
  type,
  label,
  models,
  agentConfigurationDoc,
  // Writable inside the sandbox: the CLI's login, sessions and settings.
  stateDirs: ['.qwen/'],
  configSchema: VendorGLocalConfig,
  execute: executeQwen,
  testEnvironment: testQwenEnvironment,
  sessionCodec,
  detectModel,
  cliFormatter,
  uiParser,
});
