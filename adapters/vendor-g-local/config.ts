import { z } from 'zod';
import { AppendSystemPrompt, MaxTurns, ModelName, ToolNames, cliCommandFields, cliRunFields } from '@service/adapter-utils/config';

export const APPROVAL_MODES = ['plan', 'default', 'auto-edit', 'yolo'] as const;
export const AUTH_TYPES = ['openai', 'anthropic', 'qwen-oauth', 'gemini', 'vertex-ai'] as const;

export const VendorGLocalConfig = z
  .strictObject({
    ...cliCommandFields('qwen'),
    model: ModelName.optional(),
    /** `--auth-type`; `openai` speaks any OpenAI-compatible API (OPENAI_BASE_URL, OPENAI_API_KEY). */
    authType: z.enum(AUTH_TYPES).optional(),
    /**
     * Headless runs cannot answer approval prompts: `yolo` (default) lets the agent use its shell
     * and edit tools; `auto-edit` plus `allowedTools` is the narrower choice.
     */
    approvalMode: z.enum(APPROVAL_MODES).default('yolo'),
    allowedTools: ToolNames.optional(),
    excludeTools: ToolNames.optional(),
    appendSystemPrompt: AppendSystemPrompt.optional(),
    maxTurns: MaxTurns.optional(),
    ...cliRunFields(),
  })
  .meta({ id: 'VendorGLocalConfig' });
export type VendorGLocalConfig = z.infer<typeof VendorGLocalConfig>;
