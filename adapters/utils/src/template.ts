/**
 * `{{variable}}` substitution for prompt templates (spec 2.9: agentId, agentName, companyId, runId,
 * taskId, taskTitle). Unknown variables render as empty text; whitespace inside braces is allowed.
 * No expressions and no HTML escaping: prompts are plain text handed to a CLI.
 */
export function renderTemplate(template: string, data: Record<string, string | number | boolean | null | undefined>): string {
  return template.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (_match, name: string) => {
    const value = data[name];
    return value === null || value === undefined ? '' : String(value);
  });
}

export const DEFAULT_PROMPT =
  'You are {{agentName}}. Continue your work: check your assigned issues, pick the most important one, and make progress on it.';
