import { z } from 'zod';
import { cliCommandFields, cliRunFields } from '@service/adapter-utils/config';

/** OpenCode model ids are `provider/model` (the model part may itself contain slashes). */
export const ProviderModel = z.string().regex(/^[A-Za-z0-9][\w.-]*\/\S+$/, 'must be provider/model').max(200);

export const VendorDLocalConfig = z
  .strictObject({
    ...cliCommandFields('opencode'),
    model: ProviderModel.optional(),
    /** An OpenCode agent (`build`, `plan`, or one of the user's). */
    agent: z.string().min(1).max(100).optional(),
    /** Provider-specific reasoning effort (`--variant`: high, max, minimal...). */
    variant: z.string().min(1).max(50).optional(),
    /** `--auto`: approve every permission not explicitly denied (headless runs cannot ask). */
    autoApprove: z.boolean().default(false),
    ...cliRunFields(),
  })
  .meta({ id: 'VendorDLocalConfig' });
export type VendorDLocalConfig = z.infer<typeof VendorDLocalConfig>;
