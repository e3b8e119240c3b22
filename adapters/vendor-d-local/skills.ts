import { ephemeralSkillsSnapshot, type SkillsContext, type SkillsSnapshot } from '@service/adapter-utils';

export const PRODUCT_SKILLS = ['headcount-heartbeat'];

/**
 * OpenCode loads skills from its config folders (`~/.config/opencode`, the project's `.opencode`);
 * writing there would touch the user's own. The skill is written to a per-run directory and the
 * prompt points at it; the directory is removed after the run.
 */
export function skillsPromptNote(files: string[]): string {
  return `\n\nSkills for this run (read the file before you start): ${files.join(', ')}`;
}

export async function listSkills(_ctx: SkillsContext): Promise<SkillsSnapshot> {
  return ephemeralSkillsSnapshot('vendor_d_local', PRODUCT_SKILLS);
}

export async function syncSkills(_ctx: SkillsContext, desiredSkills: string[]): Promise<SkillsSnapshot> {
  return ephemeralSkillsSnapshot('vendor_d_local', PRODUCT_SKILLS, desiredSkills);
}
