import { z } from 'zod';
import type { RouteRegistrar } from '../kernel/route.js';
import { errorResponses } from '../kernel/route.js';
import { CompanyIdParams } from '../kernel/common-contract.js';
import { ArrayPageQuery, ARRAY_PAGE_DESCRIPTION, sendArrayPage } from '../kernel/header-page.js';
import { Company, CreateCompanyBody, ListCompaniesQuery, LogoUploadResult, PatchCompanyBody } from './contract.js';
import { EmptyBody } from '../kernel/common-contract.js';
import { receiveLogo } from '../assets/upload.js';
import { assetContentUrl } from './service.js';

const tags = ['companies'];

export const companiesRoutes: RouteRegistrar = (app, s) => {
  app.get('/api/companies', {
    schema: {
      tags,
      summary: 'Companies the caller can access (archived ones only with includeArchived=true), oldest first, one page at a time',
      description: ARRAY_PAGE_DESCRIPTION,
      querystring: ListCompaniesQuery.extend(ArrayPageQuery),
      response: { 200: z.array(Company), ...errorResponses },
    },
    handler: async (req, reply) => sendArrayPage(req, reply, req.query.limit, s.companies.list(req.actor, req.query.includeArchived === 'true', req.query)),
  });

  app.get('/api/companies/:companyId', {
    schema: { tags, params: CompanyIdParams, response: { 200: Company, ...errorResponses } },
    handler: (req) => s.companies.get(req.actor, req.params.companyId),
  });

  app.post('/api/companies', {
    schema: { tags, summary: 'Create a company (board)', body: CreateCompanyBody, response: { 201: Company, ...errorResponses } },
    handler: (req, reply) => {
      reply.code(201).send(s.companies.create(req.actor, req.body));
    },
  });

  app.patch('/api/companies/:companyId', {
    schema: { tags, summary: 'Update name, description, budget or logo (board)', params: CompanyIdParams, body: PatchCompanyBody, response: { 200: Company, ...errorResponses } },
    handler: (req) => s.companies.patch(req.actor, req.params.companyId, req.body),
  });

  for (const action of ['archive', 'unarchive', 'pause', 'resume'] as const) {
    app.post(`/api/companies/:companyId/${action}`, {
      schema: { tags, summary: `${action[0]!.toUpperCase()}${action.slice(1)} the company (board)`, params: CompanyIdParams, body: EmptyBody, response: { 200: Company, ...errorResponses } },
      handler: (req) => s.companies[action](req.actor, req.params.companyId),
    });
  }

  app.delete('/api/companies/:companyId', {
    schema: {
      tags,
      summary: 'Delete an archived company and everything it holds, for good (board; not in the spec). 409 while it is not archived or a run is queued or running.',
      params: CompanyIdParams,
      response: { 204: z.null(), ...errorResponses },
    },
    handler: async (req, reply) => {
      s.companies.delete(req.actor, req.params.companyId);
      return reply.code(204).send(null);
    },
  });

  app.post('/api/companies/:companyId/logo', {
    schema: {
      tags,
      summary: 'Upload a logo image (multipart/form-data, one file part); PATCH its assetId into logoAssetId',
      params: CompanyIdParams,
      response: { 201: LogoUploadResult, ...errorResponses },
    },
    handler: async (req, reply) => {
      const row = await receiveLogo(req, s, req.params.companyId);
      return reply.code(201).send({ assetId: row.id, contentType: row.contentType, byteSize: row.byteSize, sha256: row.sha256, url: assetContentUrl(row.id) });
    },
  });
};
