import { z } from 'zod';
import { AbsolutePath, AppendSystemPrompt, MaxTurns, ModelName, cliCommandFields, cliRunFields } from '@service/adapter-utils/config';

export const THINKING_LEVELS = ['off', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;

export const VendorFLocalConfig = z
  .strictObject({
    ...cliCommandFields('pi'),
    /** `--provider` (anthropic, openai, google, a custom provider of models.json...). */
    provider: z.string().min(1).max(200).optional(),
    /** `--model`: an id or pattern, `provider/id` accepted. */
    model: ModelName.optional(),
    thinking: z.enum(THINKING_LEVELS).optional(),
    /** `--tools` allowlist; default pi's own (read, bash, edit, write). A heartbeat needs bash. */
    tools: z.array(z.string().min(1).max(200)).max(100).optional(),
    appendSystemPrompt: AppendSystemPrompt.optional(),
    /** `--session-dir`: where pi stores and looks up sessions (default its agent directory). */
    sessionDir: AbsolutePath.optional(),
    /**
     * Pi has no turn limit of its own: the adapter counts turns in the JSON stream and stops the
     * run after this many.
     */
    maxTurns: MaxTurns.optional(),
    ...cliRunFields(),
  })
  .meta({ id: 'VendorFLocalConfig' });
export type VendorFLocalConfig = z.infer<typeof VendorFLocalConfig>;
