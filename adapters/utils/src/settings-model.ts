import { readFileSync } from 'node:fs';

/**
 * The `model` a CLI's JSON settings file names, trimmed; null when the file is missing, unreadable
 * or names none. `nestedKey`: newer settings nest it (`{ model: { name } }`); without it only a
 * plain string counts.
 */
export function settingsModel(file: string, nestedKey?: string): string | null {
  try {
    const m = (JSON.parse(readFileSync(file, 'utf8')) as { model?: unknown } | null)?.model;
    const name = typeof m === 'string' ? m : nestedKey && m && typeof m === 'object' ? (m as Record<string, unknown>)[nestedKey] : null;
    return typeof name === 'string' && name.trim() ? name.trim() : null;
  } catch {
    return null;
  }
}
