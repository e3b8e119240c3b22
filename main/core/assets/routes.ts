import { z } from 'zod';
import type { RouteRegistrar } from '../http/types.js';
import { errorResponses } from '../http/types.js';
import { Id } from '../http/common-contract.js';

/**
 * Served with a sandboxing CSP so an SVG opened directly runs no script, and with nosniff so the
 * browser never reinterprets the bytes as something else.
 */
export const ASSET_CSP = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox";

export const assetsRoutes: RouteRegistrar = (app, s) => {
  app.get('/api/assets/:assetId/content', {
    schema: {
      tags: ['assets'],
      summary: 'Stored file content (logos); immutable per id',
      params: z.strictObject({ assetId: Id }),
      response: { 200: z.any().describe('The file bytes'), ...errorResponses },
    },
    handler: async (req, reply) => {
      const row = s.assets.get(req.actor, req.params.assetId);
      return reply
        .header('content-type', row.contentType)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', ASSET_CSP)
        .header('content-disposition', `inline; filename="${row.originalName}"`)
        .header('cache-control', 'private, max-age=31536000, immutable')
        .header('cross-origin-resource-policy', 'same-origin')
        .send(s.assets.open(row));
    },
  });
};
