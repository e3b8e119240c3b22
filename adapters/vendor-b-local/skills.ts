import { PRODUCT_SKILLS, ephemeralSkills, skillsPromptNote } from '@service/adapter-utils';

/**
 * Codex 0.169 reads skills only from `~/.agents/skills` and `$CODEX_HOME/skills` and has no flag
 * for another root, so the skill is written to a per-run directory (readable through `--add-dir`)
 * and the prompt points at it: the user's own skill folders are never written to.
 */
export { PRODUCT_SKILLS, skillsPromptNote };

export const { listSkills, syncSkills } = ephemeralSkills('vendor_b_local');
