import { z } from 'zod';
import type { RouteRegistrar } from '../../kernel/route.js';
import { errorResponses } from '../../kernel/route.js';
import { EmptyBody } from '../../kernel/common-contract.js';
import { HOOK_EVENTS } from './config.js';

const Problem = z.object({ path: z.string(), message: z.string() });

export const HooksRegistryStatus = z.object({
  path: z.string().describe('The hooks file: $SERVICE_HOME/post-issue-hooks.json'),
  source: z.enum(['file', 'missing', 'invalid_at_start']).describe('Where the active hooks came from; invalid_at_start = the file was invalid at start, no hooks active'),
  loadedAt: z.string(),
  hooks: z.array(
    z.object({
      id: z.string(),
      type: z.string(),
      enabled: z.boolean(),
      event: z.enum(HOOK_EVENTS),
      match: z.record(z.string(), z.unknown()),
      config: z.record(z.string(), z.unknown()),
    }),
  ),
  enabledCount: z.int(),
  lastError: z.object({ at: z.string(), problems: z.array(Problem) }).nullable().describe('The last refused load while the hooks above stayed active'),
});

const tags = ['crm'];

export const crmHooksRoutes: RouteRegistrar = (app, s) => {
  app.post('/api/admin/post-issue-hooks/reload', {
    schema: {
      tags,
      summary: 'Re-read post-issue-hooks.json and swap it in (instance administrators only); an invalid file is refused with 422 and the previous hooks stay',
      body: EmptyBody,
      response: { 200: HooksRegistryStatus, ...errorResponses },
    },
    handler: (req) => s.crmHooks.reload(req.actor),
  });

  app.get('/api/admin/post-issue-hooks', {
    schema: { tags, summary: 'The post-issue hooks in force and the last refused load (instance administrators only)', response: { 200: HooksRegistryStatus, ...errorResponses } },
    handler: (req) => s.crmHooks.status(req.actor),
  });
};
