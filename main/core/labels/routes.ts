import { z } from 'zod';
import type { RouteRegistrar } from '../kernel/route.js';
import { errorResponses } from '../kernel/route.js';
import { CompanyIdParams } from '../kernel/common-contract.js';
import { ArrayPageQuery, ARRAY_PAGE_DESCRIPTION, sendArrayPage } from '../kernel/header-page.js';
import { CreateLabelBody, Label, LabelIdParams, PatchLabelBody } from './contract.js';

const tags = ['labels'];

export const labelsRoutes: RouteRegistrar = (app, s) => {
  app.get('/api/companies/:companyId/labels', {
    schema: { tags, summary: 'Labels of the company, by name, one page at a time', description: ARRAY_PAGE_DESCRIPTION, params: CompanyIdParams, querystring: z.strictObject(ArrayPageQuery), response: { 200: z.array(Label), ...errorResponses } },
    handler: async (req, reply) => sendArrayPage(req, reply, req.query.limit, s.labels.list(req.actor, req.params.companyId, req.query)),
  });
  app.post('/api/companies/:companyId/labels', {
    schema: { tags, params: CompanyIdParams, body: CreateLabelBody, response: { 201: Label, ...errorResponses } },
    handler: (req, reply) => {
      reply.code(201).send(s.labels.create(req.actor, req.params.companyId, req.body));
    },
  });
  app.patch('/api/labels/:labelId', {
    schema: { tags, params: LabelIdParams, body: PatchLabelBody, response: { 200: Label, ...errorResponses } },
    handler: (req) => s.labels.patch(req.actor, req.params.labelId, req.body),
  });
  app.delete('/api/labels/:labelId', {
    schema: { tags, summary: 'Deletes the label and removes it from every issue', params: LabelIdParams, response: { 204: z.null(), ...errorResponses } },
    handler: async (req, reply) => {
      s.labels.remove(req.actor, req.params.labelId);
      return reply.code(204).send(null);
    },
  });
};
