import { z } from 'zod';
import type { JsonSchema } from './schema-fields.js';

/** Problems by top-level configuration key (`timeoutSec`, `env`…); `__json` for the whole object. */
export type FieldErrors = Record<string, string>;

/** The field an issue belongs to: the first path segment, or the JSON box for an object-level one. */
const fieldOfPath = (path: readonly PropertyKey[]): string => (path.length ? String(path[0]) : '__json');

function addError(errors: FieldErrors, field: string, message: string) {
  if (!errors[field]) errors[field] = message;
}

/**
 * Checks a configuration against the adapter's published JSON Schema (converted to zod, the
 * validator the server itself uses for plugin schemas), so a wrong value is named at its field
 * before any request. Refinements the schema cannot carry (an absolute `cwd`) are the server's to
 * report, and `serverFieldErrors` places those at the field too.
 */
export function validateConfig(schema: JsonSchema, config: Record<string, unknown>): FieldErrors {
  let validator: z.ZodType;
  try {
    validator = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    return {};
  }
  const parsed = validator.safeParse(config);
  const errors: FieldErrors = {};
  if (parsed.success) return errors;
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) addError(errors, '__json', `${key}: unknown setting for this adapter`);
      continue;
    }
    const where = issue.path.slice(1).map(String).join('.');
    addError(errors, fieldOfPath(issue.path), where ? `${where}: ${issue.message}` : issue.message);
  }
  return errors;
}

/** The problems of an API 400 (`details.problems[].path` like `body.adapterConfig.cwd`), by field. */
export function serverFieldErrors(err: unknown): FieldErrors {
  const problems = (err as { details?: { problems?: Array<{ path?: string; message?: string }> } } | null)?.details?.problems;
  const errors: FieldErrors = {};
  if (!Array.isArray(problems)) return errors;
  for (const p of problems) {
    const m = /^body\.adapterConfig(?:\.([^.]+)(?:\.(.+))?)?$/.exec(p.path ?? '');
    if (!m) continue;
    addError(errors, m[1] ?? '__json', m[2] ? `${m[2]}: ${p.message ?? 'invalid value'}` : (p.message ?? 'invalid value'));
  }
  return errors;
}
