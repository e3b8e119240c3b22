import { z } from 'zod';
import { AbsolutePath, ModelName, cliCommandFields, cliRunFields } from '@service/adapter-utils/config';

export const APPROVAL_MODES = ['default', 'auto_edit', 'yolo', 'plan'] as const;

export const VendorCLocalConfig = z
  .strictObject({
    /**
     * The explicit opt-in an experimental adapter type requires (checked when an agent is created
     * or its configuration changed): without it the API answers 400 `experimental_adapter`.
     */
    enableExperimental: z.boolean().optional(),
    ...cliCommandFields('gemini'),
    model: ModelName.optional(),
    /** Headless runs cannot answer approval prompts: `yolo` (default) lets the agent use its tools. */
    approvalMode: z.enum(APPROVAL_MODES).default('yolo'),
    /** `--skip-trust`: an untrusted folder would otherwise stop a headless run. */
    skipTrust: z.boolean().default(true),
    includeDirectories: z.array(AbsolutePath).max(50).optional(),
    ...cliRunFields(),
  })
  .meta({ id: 'VendorCLocalConfig' });
export type VendorCLocalConfig = z.infer<typeof VendorCLocalConfig>;
