import { z } from 'zod';
import type { RouteRegistrar } from '../kernel/route.js';
import { errorResponses } from '../kernel/route.js';
import { CompanyIdParams, PageQuery, Timestamp } from '../kernel/common-contract.js';
import { badRequest } from '../kernel/errors.js';
import { decodeCursor } from './service.js';
import { assertCompany } from '../companies/service.js';

export const ActivityRecord = z
  .object({
    id: z.string(),
    companyId: z.string().nullable(),
    actorType: z.enum(['board', 'agent', 'system']),
    actorId: z.string().nullable(),
    action: z.string(),
    entityType: z.string(),
    entityId: z.string(),
    summary: z.string(),
    details: z.record(z.string(), z.unknown()).nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: 'Activity' });

export const activityRoutes: RouteRegistrar = (app, s) => {
  app.get('/api/companies/:companyId/activity', {
    schema: {
      tags: ['activity'],
      summary: 'Activity log, newest first; follow nextCursor for older entries',
      params: CompanyIdParams,
      querystring: z.strictObject({
        ...PageQuery,
        entityType: z.string().max(64).optional(),
        entityId: z.string().max(64).optional(),
        action: z.string().max(128).optional(),
      }),
      response: { 200: z.object({ items: z.array(ActivityRecord), nextCursor: z.string().nullable() }), ...errorResponses },
    },
    handler: (req) => {
      assertCompany(s.ctx.db, req.actor, req.params.companyId);
      let before: number | null = null;
      if (req.query.cursor !== undefined) {
        before = decodeCursor(req.query.cursor);
        if (before === null) throw badRequest('invalid_cursor', 'query.cursor: not a cursor from this list');
      }
      const page = s.activity.list(req.actor, req.params.companyId, req.query, before);
      return { items: page.items.map(({ seq: _seq, ...rest }) => rest), nextCursor: page.nextCursor };
    },
  });
};
