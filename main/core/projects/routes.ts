import { z } from 'zod';
import type { RouteRegistrar } from '../kernel/route.js';
import { errorResponses } from '../kernel/route.js';
import { CompanyIdParams } from '../kernel/common-contract.js';
import { ArrayPageQuery, ARRAY_PAGE_DESCRIPTION, sendArrayPage } from '../kernel/header-page.js';
import { CreateProjectBody, PatchProjectBody, Project, ProjectIdParams } from './contract.js';

const tags = ['projects'];

export const projectsRoutes: RouteRegistrar = (app, s) => {
  app.get('/api/companies/:companyId/projects', {
    schema: { tags, summary: 'Projects of the company, oldest first, one page at a time', description: ARRAY_PAGE_DESCRIPTION, params: CompanyIdParams, querystring: z.strictObject(ArrayPageQuery), response: { 200: z.array(Project), ...errorResponses } },
    handler: async (req, reply) => sendArrayPage(req, reply, req.query.limit, s.projects.list(req.actor, req.params.companyId, req.query)),
  });
  app.post('/api/companies/:companyId/projects', {
    schema: { tags, params: CompanyIdParams, body: CreateProjectBody, response: { 201: Project, ...errorResponses } },
    handler: (req, reply) => {
      reply.code(201).send(s.projects.create(req.actor, req.params.companyId, req.body));
    },
  });
  app.get('/api/projects/:projectId', {
    schema: { tags, params: ProjectIdParams, response: { 200: Project, ...errorResponses } },
    handler: (req) => s.projects.get(req.actor, req.params.projectId),
  });
  app.patch('/api/projects/:projectId', {
    schema: { tags, params: ProjectIdParams, body: PatchProjectBody, response: { 200: Project, ...errorResponses } },
    handler: (req) => s.projects.patch(req.actor, req.params.projectId, req.body),
  });
};
