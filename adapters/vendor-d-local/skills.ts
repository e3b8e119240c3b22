import { PRODUCT_SKILLS, ephemeralSkills, skillsPromptNote } from '@service/adapter-utils';

/**
 * OpenCode loads skills from its config folders (`~/.config/opencode`, the project's `.opencode`);
 * writing there would touch the user's own. The skill is written to a per-run directory and the
 * prompt points at it; the directory is removed after the run.
 */
export { PRODUCT_SKILLS, skillsPromptNote };

export const { listSkills, syncSkills } = ephemeralSkills('vendor_d_local');
