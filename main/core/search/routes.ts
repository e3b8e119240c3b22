import type { RouteRegistrar } from '../kernel/route.js';
import { errorResponses } from '../kernel/route.js';
import { CompanyIdParams } from '../kernel/common-contract.js';
import { SearchQuery, SearchResults } from './contract.js';

export const searchRoutes: RouteRegistrar = (app, s) => {
  app.get('/api/companies/:companyId/search', {
    schema: {
      tags: ['search'],
      summary: 'Issues (title, description, comments; ranked), agents and projects (by name) matching q',
      params: CompanyIdParams,
      querystring: SearchQuery,
      response: { 200: SearchResults, ...errorResponses },
    },
    handler: (req) => s.search.search(req.actor, req.params.companyId, req.query),
  });
};
