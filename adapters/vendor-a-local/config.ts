import { z } from 'zod';
import { AppendSystemPrompt, MaxTurns, ModelName, ToolNames, cliCommandFields, cliRunFields } from '@service/adapter-utils/config';

export const PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'dontAsk', 'auto', 'bypassPermissions'] as const;

/** The tools a heartbeat needs by default: shell (curl to the API), reading and editing files. */
export const DEFAULT_ALLOWED_TOOLS = ['Bash', 'Read', 'Edit', 'Write', 'Glob', 'Grep'];

export const VendorALocalConfig = z
  .strictObject({
    ...cliCommandFields('claude'),
    model: ModelName.optional(),
    appendSystemPrompt: AppendSystemPrompt.optional(),
    maxTurns: MaxTurns.optional(),
    permissionMode: z.enum(PERMISSION_MODES).default('default'),
    /**
     * Tools the agent may use without asking (`Bash`, `Bash(curl *)`, `Edit`...). Headless runs
     * cannot answer permission prompts, and as root Claude Code refuses to skip them, so the
     * tools must be allowed explicitly.
     */
    allowedTools: ToolNames.default(DEFAULT_ALLOWED_TOOLS),
    disallowedTools: ToolNames.optional(),
    ...cliRunFields(),
  })
  .meta({ id: 'VendorALocalConfig' });
export type VendorALocalConfig = z.infer<typeof VendorALocalConfig>;
