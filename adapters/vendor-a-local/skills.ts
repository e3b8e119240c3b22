import { ephemeralSkillsSnapshot, type SkillsContext, type SkillsSnapshot } from '@service/adapter-utils';

/** The product skill installed per run (`.claude/skills/<name>/SKILL.md` in a temp `--add-dir`). */
export const PRODUCT_SKILLS = ['headcount-heartbeat'];

export async function listSkills(_ctx: SkillsContext): Promise<SkillsSnapshot> {
  return ephemeralSkillsSnapshot('vendor_a_local', PRODUCT_SKILLS);
}

/** Nothing to write: the skill is provided per run and the user's ~/.claude/skills stay untouched. */
export async function syncSkills(_ctx: SkillsContext, desiredSkills: string[]): Promise<SkillsSnapshot> {
  return ephemeralSkillsSnapshot('vendor_a_local', PRODUCT_SKILLS, desiredSkills);
}
