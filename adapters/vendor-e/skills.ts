import { PRODUCT_SKILLS, type RuntimeSkill } from '@service/adapter-utils';

/**
 * The Cursor CLI has no flag for an extra skills or rules directory, and writing
 * `.cursor/rules` into the founder's workspace would outlive the run: the product skill goes
 * into the run's prompt instead, fresh at every heartbeat.
 */
export { PRODUCT_SKILLS };

/** The prompt with the run's skills ahead of it. */
export function promptWithSkills(prompt: string, skills: RuntimeSkill[] | undefined): string {
  if (!skills?.length) return prompt;
  const blocks = skills.map((s) => `<skill name="${s.name}">\n${s.markdown.trim()}\n</skill>`);
  return `${blocks.join('\n\n')}\n\n${prompt}`;
}
