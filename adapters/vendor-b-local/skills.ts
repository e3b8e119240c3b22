import { ephemeralSkillsSnapshot, type SkillsContext, type SkillsSnapshot } from '@service/adapter-utils';

export const PRODUCT_SKILLS = ['headcount-heartbeat'];

/**
 * Codex 0.169 reads skills only from `~/.agents/skills` and `$CODEX_HOME/skills` and has no flag
 * for another root, so the skill is written to a per-run directory (readable through `--add-dir`)
 * and the prompt points at it: the user's own skill folders are never written to.
 */
export function skillsPromptNote(files: string[]): string {
  return `\n\nSkills for this run (read the file before you start): ${files.map((f) => f).join(', ')}`;
}

export async function listSkills(_ctx: SkillsContext): Promise<SkillsSnapshot> {
  return ephemeralSkillsSnapshot('vendor_b_local', PRODUCT_SKILLS);
}

export async function syncSkills(_ctx: SkillsContext, desiredSkills: string[]): Promise<SkillsSnapshot> {
  return ephemeralSkillsSnapshot('vendor_b_local', PRODUCT_SKILLS, desiredSkills);
}
