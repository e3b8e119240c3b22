import { z } from 'zod';
import type { RouteRegistrar } from '../kernel/route.js';
import { errorResponses } from '../kernel/route.js';
import { CompanyIdParams, EmptyBody } from '../kernel/common-contract.js';
import { Inbox, InboxItemParams, InboxQuery } from './contract.js';

const tags = ['inbox'];

export const inboxRoutes: RouteRegistrar = (app, s) => {
  app.get('/api/companies/:companyId/inbox', {
    schema: {
      tags,
      summary: 'What waits on the board, newest first, one page at a time (board only)',
      params: CompanyIdParams,
      querystring: InboxQuery,
      response: { 200: Inbox, ...errorResponses },
    },
    handler: (req) => s.inbox.list(req.actor, req.params.companyId, req.query),
  });
  app.post('/api/companies/:companyId/inbox/:itemId/dismiss', {
    schema: { tags, summary: 'Hide an item for good (kept across restarts)', params: InboxItemParams, body: EmptyBody, response: { 204: z.null(), ...errorResponses } },
    handler: async (req, reply) => {
      s.inbox.dismiss(req.actor, req.params.companyId, req.params.itemId);
      return reply.code(204).send(null);
    },
  });
};
