import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RuntimeSkill, SkillsContext, SkillsSnapshot } from './types.js';
import { currentConfinement } from './confine/confinement.js';

export interface EphemeralSkillsDir {
  /** The per-run root directory (hand it to the CLI, e.g. `--add-dir`). */
  root: string;
  /** Where the skill folders are (`<root>/<skillsSubdir>`). */
  skillsDir: string;
  /** One `SKILL.md` path per skill written. */
  files: string[];
  /** Removes the directory; safe to call twice. */
  cleanup(): void;
}

export interface EphemeralSkillsOptions {
  skills: RuntimeSkill[];
  /** Path of the skill folders inside the root, e.g. `.claude/skills`. Default `skills`. */
  skillsSubdir?: string;
  /** Parent of the per-run directory; default the OS temp directory. */
  parent?: string;
}

/**
 * Makes the product's agent skills available to one run: a fresh temp directory holding
 * `<skillsSubdir>/<name>/SKILL.md` (with the `name`/`description` front matter the CLIs read).
 * It is created per run and removed after it, so the user's own skill folders (~/.claude/skills,
 * a project's .claude/skills) are never written to or shadowed.
 */
export function createEphemeralSkillsDir(options: EphemeralSkillsOptions): EphemeralSkillsDir {
  const root = mkdtempSync(path.join(options.parent ?? os.tmpdir(), 'headcount-skills-'));
  // The run's sandbox has a private /tmp: the CLI must still find the skills this run made for it.
  const sandbox = currentConfinement()?.sandbox;
  if (sandbox) sandbox.writable = [...(sandbox.writable ?? []), root];
  const skillsDir = path.join(root, options.skillsSubdir ?? 'skills');
  const files: string[] = [];
  try {
    for (const skill of options.skills) {
      if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(skill.name)) throw new Error(`skill name "${skill.name}" is not kebab-case`);
      const dir = path.join(skillsDir, skill.name);
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const file = path.join(dir, 'SKILL.md');
      writeFileSync(file, withFrontMatter(skill), { mode: 0o600 });
      files.push(file);
    }
  } catch (err) {
    rmSync(root, { recursive: true, force: true });
    throw err;
  }
  return { root, skillsDir, files, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** The skill text with front matter; markdown that already starts with front matter is kept. */
function withFrontMatter(skill: RuntimeSkill): string {
  if (skill.markdown.startsWith('---\n')) return skill.markdown;
  const description = skill.description.replace(/\s+/g, ' ').trim();
  return `---\nname: ${skill.name}\ndescription: ${JSON.stringify(description)}\n---\n\n${skill.markdown}`;
}

/**
 * The listSkills/syncSkills answer of an adapter whose skills are ephemeral: the product's skills
 * are installed for each run, whatever is desired; other names are reported as not installable.
 */
export function ephemeralSkillsSnapshot(adapterType: string, available: string[], desiredSkills: string[] = available): SkillsSnapshot {
  const unknown = desiredSkills.filter((name) => !available.includes(name));
  return {
    adapterType,
    supported: true,
    mode: 'ephemeral',
    desiredSkills,
    entries: available.map((name) => ({ name, installed: true, description: 'Installed for each run in a temporary directory, removed afterwards' })),
    warnings: unknown.map((name) => `"${name}" is not a Headcount skill; only ${available.join(', ')} can be provided per run`),
  };
}

/** The product's skills every local CLI adapter provides per run. */
export const PRODUCT_SKILLS = ['headcount-heartbeat'];

/**
 * listSkills/syncSkills of an adapter whose skills are written per run: nothing is ever written to
 * the user's own skill folders.
 */
export function ephemeralSkills(adapterType: string, available: string[] = PRODUCT_SKILLS) {
  return {
    listSkills: async (_ctx: SkillsContext): Promise<SkillsSnapshot> => ephemeralSkillsSnapshot(adapterType, available),
    syncSkills: async (_ctx: SkillsContext, desiredSkills: string[]): Promise<SkillsSnapshot> => ephemeralSkillsSnapshot(adapterType, available, desiredSkills),
  };
}

/**
 * For CLIs that read skills only from the user's own folders: the per-run skill files are named in
 * the prompt (the folder is added to the CLI's workspace so its read tool may open them).
 */
export function skillsPromptNote(files: string[]): string {
  return `\n\nSkills for this run (read the file before you start): ${files.join(', ')}`;
}
