import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { RuntimeSkill } from '@service/adapter-utils';
import { PACKAGE_ROOT } from '../../kernel/package-root.js';

/** Read from the package root like the heartbeat skill: dist/ holds no .md files. */
export const BRAND_VOICE_SKILL_FILE = path.join(PACKAGE_ROOT, 'main', 'core', 'crm', 'brand-voice', 'skill.md');
let skill: string | undefined;
export const brandVoiceSkill = (): string => (skill ??= readFileSync(BRAND_VOICE_SKILL_FILE, 'utf8'));

/** The skill as adapters receive it in `runtime.skills`. */
export const brandVoiceRuntimeSkill = (): RuntimeSkill => ({
  name: 'headcount-brand-voice',
  description: 'Check a draft against the company brand voice before sending or publishing it (cached by content hash).',
  markdown: brandVoiceSkill(),
});
