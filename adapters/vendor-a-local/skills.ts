import { PRODUCT_SKILLS, ephemeralSkills } from '@service/adapter-utils';

/** The product skill installed per run (`.claude/skills/<name>/SKILL.md` in a temp `--add-dir`). */
export { PRODUCT_SKILLS };

/** Nothing to write: the skill is provided per run and the user's ~/.claude/skills stay untouched. */
export const { listSkills, syncSkills } = ephemeralSkills('vendor_a_local');
