import { ephemeralSkillsSnapshot, type SkillsContext, type SkillsSnapshot } from '@service/adapter-utils';

/** The product skill, written per run to a temp directory passed with `--skill`. */
export const PRODUCT_SKILLS = ['headcount-heartbeat'];

export async function listSkills(_ctx: SkillsContext): Promise<SkillsSnapshot> {
  return ephemeralSkillsSnapshot('vendor_f_local', PRODUCT_SKILLS);
}

/** Nothing to write: the user's ~/.pi/agent/skills stay untouched. */
export async function syncSkills(_ctx: SkillsContext, desiredSkills: string[]): Promise<SkillsSnapshot> {
  return ephemeralSkillsSnapshot('vendor_f_local', PRODUCT_SKILLS, desiredSkills);
}
