import { z } from 'zod';

/** `{issueId}` path segments accept the UUID or the readable identifier (`ACME-42`). */
export const IssueRef = z
  .string()
  .min(1)
  .max(64)
  .regex(/^([0-9a-fA-F-]{36}|[A-Za-z][A-Za-z0-9]{0,9}-[1-9][0-9]{0,9})$/, 'must be an issue id or identifier like ACME-42');

export const IssueIdParams = z.strictObject({ issueId: IssueRef });
