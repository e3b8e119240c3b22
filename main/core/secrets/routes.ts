import { z } from 'zod';
import type { RouteRegistrar } from '../kernel/route.js';
import { errorResponses } from '../kernel/route.js';
import { CompanyIdParams } from '../kernel/common-contract.js';
import { ArrayPageQuery, ARRAY_PAGE_DESCRIPTION, sendArrayPage } from '../kernel/header-page.js';
import { CreateSecretBody, PatchSecretBody, Secret, SecretIdParams, SystemStatus } from './contract.js';

const tags = ['secrets'];

/** Secrets (spec 4.6), board only; responses carry metadata, never a value. */
export const secretsRoutes: RouteRegistrar = (app, s) => {
  app.get('/api/companies/:companyId/secrets', {
    schema: { tags, summary: 'Secrets of the company: metadata only, by name, one page at a time', description: ARRAY_PAGE_DESCRIPTION, params: CompanyIdParams, querystring: z.strictObject(ArrayPageQuery), response: { 200: z.array(Secret), ...errorResponses } },
    handler: async (req, reply) => sendArrayPage(req, reply, req.query.limit, s.secrets.list(req.actor, req.params.companyId, req.query)),
  });
  app.post('/api/companies/:companyId/secrets', {
    schema: {
      tags,
      summary: 'Create a secret; the value is write-only and stored encrypted as version 1',
      params: CompanyIdParams,
      body: CreateSecretBody,
      response: { 201: Secret, ...errorResponses },
    },
    handler: async (req, reply) => reply.code(201).send(await s.secrets.create(req.actor, req.params.companyId, req.body)),
  });
  app.get('/api/secrets/:secretId', {
    schema: { tags, params: SecretIdParams, response: { 200: Secret, ...errorResponses } },
    handler: (req) => s.secrets.get(req.actor, req.params.secretId),
  });
  app.patch('/api/secrets/:secretId', {
    schema: {
      tags,
      summary: 'A new value creates a new version; description changes metadata only',
      params: SecretIdParams,
      body: PatchSecretBody,
      response: { 200: Secret, ...errorResponses },
    },
    handler: (req) => s.secrets.patch(req.actor, req.params.secretId, req.body),
  });
  app.delete('/api/secrets/:secretId', {
    schema: {
      tags,
      summary: 'Soft delete; 409 secret_in_use while a living agent references it',
      params: SecretIdParams,
      response: { 204: z.null().describe('Deleted'), ...errorResponses },
    },
    handler: async (req, reply) => {
      s.secrets.remove(req.actor, req.params.secretId);
      return reply.code(204).send(null);
    },
  });

  app.get('/api/system/status', {
    schema: { tags: ['system'], summary: 'Board only: where the master key lives, and any warning about it', response: { 200: SystemStatus, ...errorResponses } },
    handler: (req) => s.secrets.status(req.actor),
  });
};
