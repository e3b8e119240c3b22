import { z } from 'zod';
import { MaxTurns, ModelName, cliCommandFields, cliRunFields } from '@service/adapter-utils/config';

export const CURSOR_MODES = ['agent', 'plan', 'ask'] as const;

export const VendorEConfig = z
  .strictObject({
    ...cliCommandFields('cursor-agent'),
    /** `--model` (auto, sonnet-4.5, gpt-5, opus-4.1...). */
    model: ModelName.optional(),
    /** `agent` (default, may edit and run commands), `plan` or `ask` (read-only). */
    mode: z.enum(CURSOR_MODES).default('agent'),
    /**
     * `--force`: run commands without asking. A headless run cannot answer an approval prompt, so a
     * heartbeat that calls the API with curl needs it (deny rules in cli-config.json still apply).
     */
    force: z.boolean().default(true),
    /** `--approve-mcps`: start the workspace's MCP servers without asking. */
    approveMcps: z.boolean().default(false),
    /** Cursor has no turn limit: the adapter counts model calls and stops the run after this many. */
    maxTurns: MaxTurns.optional(),
    ...cliRunFields({ timeoutSec: 600 }),
  })
  .meta({ id: 'VendorEConfig' });
export type VendorEConfig = z.infer<typeof VendorEConfig>;
