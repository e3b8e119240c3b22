import { localCliAdapter } from '@service/adapter-utils';
import { VendorALocalConfig } from './config.js';
import { executeClaude } from './execute.js';
import { testClaudeEnvironment } from './environment.js';
import { sessionCodec } from './session.js';
import { detectModel } from './detect-model.js';
import { CLAUDE_MODELS } from './models.js';
import { cliFormatter } from './cli-formatter.js';
import { uiParser } from './ui-parser.js';

export const type = 'vendor_a_local';
export const label = 'Claude Code (local)';
export const models = CLAUDE_MODELS;

export const agentConfigurationDoc = `# vendor_a_local — Claude Code

Runs the Claude Code CLI on this computer at every heartbeat:
\`claude -p --output-format stream-json --verbose\`, resuming the agent's session for the same task.

**Use when** the agent writes or changes code, runs shell commands and tests in a folder on this
computer, and Claude Code is installed and logged in (or an Anthropic API key is set).

**Do not use when** the agent must run on another machine (use \`http\`), when another CLI is
wanted, or for plain scripts without a model (use \`process\`).

Configuration: \`command\` (default \`claude\`, found on PATH), \`cwd\` (absolute; sessions belong to
it), \`model\` (\`sonnet\`, \`opus\`, a model id), \`appendSystemPrompt\`, \`maxTurns\`,
\`permissionMode\` (default \`default\`), \`allowedTools\` (default Bash, Read, Edit, Write, Glob,
Grep — headless runs cannot answer permission prompts, and as root Claude Code refuses
\`--dangerously-skip-permissions\`), \`disallowedTools\`, \`extraArgs\`, \`env\` (e.g.
\`ANTHROPIC_API_KEY\` as a secret reference), \`timeoutSec\` (300), \`graceMs\` (10000),
\`idleTimeoutSec\`, \`promptTemplate\`, \`pty\` (default true; without a terminal the prompt goes on
stdin), \`helloProbe\` (the environment test sends one short prompt).

Usage, cost (as Claude Code reports it), session id and the final answer are recorded on the run.
Errors: \`login_required\` (with a hint), \`unknown_session\` (the session is cleared and the run
retried once), \`rate_limited\` (no run before the reset time), \`max_turns\`.
`;

/**
 * Skills: The product skill installed per run (`.claude/skills/<name>/SKILL.md` in a temp `--add-dir`).
 * Nothing to write: the skill is provided per run and the user's ~/.claude/skills stay untouched.
 */
export const vendorALocalAdapter = localCliAdapter({
  type,
  label,
  models,
  agentConfigurationDoc,
  // Writable inside the sandbox: the CLI's login, sessions and settings.
  stateDirs: ['.claude/', '.claude.json', '.claude.json.backup', '.config/claude/', '$CLAUDE_CONFIG_DIR/'],
  configSchema: VendorALocalConfig,
  execute: executeClaude,
  testEnvironment: testClaudeEnvironment,
  sessionCodec,
  detectModel,
  cliFormatter,
  uiParser,
});
