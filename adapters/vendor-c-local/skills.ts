import { PRODUCT_SKILLS, ephemeralSkills, skillsPromptNote } from '@service/adapter-utils';

/**
 * The Gemini CLI loads skills from `~/.gemini/skills` and the project's `.gemini/skills` only; writing
 * there would touch the user's own folders. The skill is written to a per-run directory added to
 * the workspace (`--include-directories`, so its read tool may open it) and the prompt points at it.
 */
export { PRODUCT_SKILLS, skillsPromptNote };

export const { listSkills, syncSkills } = ephemeralSkills('vendor_c_local');
