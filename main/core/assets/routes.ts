import { z } from 'zod';
import type { RouteRegistrar } from '../kernel/route.js';
import { errorResponses } from '../kernel/route.js';
import { Id } from '../kernel/common-contract.js';
import { sendAsset } from './serve.js';

export const assetsRoutes: RouteRegistrar = (app, s) => {
  app.get('/api/assets/:assetId/content', {
    schema: {
      tags: ['assets'],
      summary: 'Logo content; immutable per id. Issue attachments are served by /api/attachments/{id}/content',
      params: z.strictObject({ assetId: Id }),
      response: { 200: z.any().describe('The file bytes'), ...errorResponses },
    },
    // Attachments are not served here: they have their own disposition rules and can be deleted.
    handler: async (req, reply) =>
      sendAsset(reply, s.assets, s.assets.get(req.actor, req.params.assetId, 'logo'), {
        disposition: 'inline',
        cacheControl: 'private, max-age=31536000, immutable',
      }),
  });
};
