import { ephemeralSkillsSnapshot, type SkillsContext, type SkillsSnapshot } from '@service/adapter-utils';

export const PRODUCT_SKILLS = ['headcount-heartbeat'];

/**
 * The Gemini CLI loads skills from `~/.gemini/skills` and the project's `.gemini/skills` only; writing
 * there would touch the user's own folders. The skill is written to a per-run directory added to
 * the workspace (`--include-directories`, so its read tool may open it) and the prompt points at it.
 */
export function skillsPromptNote(files: string[]): string {
  return `\n\nSkills for this run (read the file before you start): ${files.join(', ')}`;
}

export async function listSkills(_ctx: SkillsContext): Promise<SkillsSnapshot> {
  return ephemeralSkillsSnapshot('vendor_c_local', PRODUCT_SKILLS);
}

export async function syncSkills(_ctx: SkillsContext, desiredSkills: string[]): Promise<SkillsSnapshot> {
  return ephemeralSkillsSnapshot('vendor_c_local', PRODUCT_SKILLS, desiredSkills);
}
