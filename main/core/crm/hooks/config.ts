import path from 'node:path';
import { z } from 'zod';
import { ISSUE_STATUSES } from '../../issues/schema.js';

/** The file name under SERVICE_HOME (design: `$SERVICE_HOME/post-issue-hooks.json`). */
export const HOOKS_FILE_NAME = 'post-issue-hooks.json';

/**
 * Issue events a hook can follow. `issue.done` is the one the design names; `issue.status_changed`
 * (with `match.toStatuses`) is the general form, kept for hooks other than coverage.
 */
export const HOOK_EVENTS = ['issue.done', 'issue.status_changed'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

const HookId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'must be 1-64 characters of a-z, 0-9, - and _, starting with a letter or digit');

/** Which issues a hook applies to; every field present must hold, an absent field matches all. */
const HookMatch = z
  .strictObject({
    companyIds: z.array(z.uuid({ message: 'must be a UUID' })).max(100).optional(),
    projectIds: z.array(z.uuid({ message: 'must be a UUID' })).max(100).optional(),
    toStatuses: z.array(z.enum(ISSUE_STATUSES)).max(ISSUE_STATUSES.length).optional(),
  })
  .default({});
export type HookMatch = z.infer<typeof HookMatch>;

export const BrandVoiceCoverageConfig = z.strictObject({
  contentRoot: z
    .string()
    .min(1)
    .max(4096)
    .refine((p) => path.isAbsolute(p), 'must be an absolute folder path')
    .describe('Folder the content pieces’ sourcePath values are relative to; nothing outside it is read'),
});

const common = {
  id: HookId,
  enabled: z.boolean().default(true),
  event: z.enum(HOOK_EVENTS),
  match: HookMatch,
};

export const HookDefinition = z.discriminatedUnion('type', [
  z.strictObject({ ...common, type: z.literal('brand-voice-coverage'), config: BrandVoiceCoverageConfig }),
]);
export type HookDefinition = z.infer<typeof HookDefinition>;

export const HooksFile = z
  .strictObject({
    version: z.literal(1, { message: 'must be 1' }),
    hooks: z.array(HookDefinition).max(100),
  })
  .superRefine((file, ctx) => {
    const seen = new Set<string>();
    file.hooks.forEach((hook, i) => {
      if (seen.has(hook.id)) ctx.addIssue({ code: 'custom', path: ['hooks', i, 'id'], message: `duplicate hook id "${hook.id}"` });
      seen.add(hook.id);
      if (hook.type === 'brand-voice-coverage' && hook.event !== 'issue.done') {
        ctx.addIssue({ code: 'custom', path: ['hooks', i, 'event'], message: 'brand-voice-coverage runs on issue.done only' });
      }
    });
  });
export type HooksFile = z.infer<typeof HooksFile>;

export interface HookFileProblem {
  path: string;
  message: string;
}

export type ParsedHooksFile = { ok: true; file: HooksFile } | { ok: false; problems: HookFileProblem[] };

/** Parses the text of the hooks file; problems name the JSON path (`hooks.0.config.contentRoot`). */
export function parseHooksFile(text: string): ParsedHooksFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { ok: false, problems: [{ path: '$', message: `not valid JSON (${err instanceof Error ? err.message : String(err)})` }] };
  }
  const parsed = HooksFile.safeParse(json);
  if (parsed.success) return { ok: true, file: parsed.data };
  return { ok: false, problems: parsed.error.issues.map((i) => ({ path: i.path.length ? i.path.map(String).join('.') : '$', message: i.message })) };
}

/** Does the hook follow this change? */
export function hookApplies(hook: HookDefinition, change: { companyId: string; projectId: string | null; to: string }): boolean {
  if (!hook.enabled) return false;
  if (hook.event === 'issue.done' && change.to !== 'done') return false;
  const m = hook.match;
  if (m.companyIds?.length && !m.companyIds.includes(change.companyId)) return false;
  if (m.projectIds?.length && (!change.projectId || !m.projectIds.includes(change.projectId))) return false;
  if (m.toStatuses?.length && !m.toStatuses.includes(change.to as (typeof ISSUE_STATUSES)[number])) return false;
  return true;
}
