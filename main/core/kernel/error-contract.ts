import { z } from 'zod';
import { ServiceError } from './errors.js';

/** The body of every 4xx/5xx response (DESIGN.md). */
export const ErrorBody = z
  .object({
    error: z.string().describe('Human-readable message'),
    code: z.string().describe('Stable snake_case code'),
    details: z.unknown().optional(),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBody>;

export interface FieldProblem {
  location: string;
  path: string;
  message: string;
}

export interface ZodLikeIssue {
  code?: string;
  path?: PropertyKey[];
  message?: string;
  keys?: string[];
}

/** Turns zod issues into problems that name the field, e.g. `body.name`. */
export function fieldProblems(location: string, issues: readonly ZodLikeIssue[]): FieldProblem[] {
  const out: FieldProblem[] = [];
  for (const issue of issues) {
    const base = [location, ...(issue.path ?? []).map(String)].join('.');
    if (issue.code === 'unrecognized_keys' && issue.keys?.length) {
      for (const key of issue.keys) out.push({ location, path: `${base}.${key}`, message: 'unknown field' });
    } else {
      out.push({ location, path: base, message: issue.message ?? 'invalid value' });
    }
  }
  return out;
}

export function validationError(problems: FieldProblem[]): ServiceError {
  const first = problems[0];
  const message = first ? `${first.path}: ${first.message}` : 'Invalid request';
  return new ServiceError(400, 'validation_error', message, { problems });
}
