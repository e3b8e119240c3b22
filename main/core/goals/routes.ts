import { z } from 'zod';
import type { RouteRegistrar } from '../kernel/route.js';
import { errorResponses } from '../kernel/route.js';
import { CompanyIdParams } from '../kernel/common-contract.js';
import { ArrayPageQuery, ARRAY_PAGE_DESCRIPTION, sendArrayPage } from '../kernel/header-page.js';
import { CreateGoalBody, Goal, GoalIdParams, PatchGoalBody } from './contract.js';

const tags = ['goals'];

export const goalsRoutes: RouteRegistrar = (app, s) => {
  app.get('/api/companies/:companyId/goals', {
    schema: { tags, summary: 'Goals of the company, oldest first, one page at a time', description: ARRAY_PAGE_DESCRIPTION, params: CompanyIdParams, querystring: z.strictObject(ArrayPageQuery), response: { 200: z.array(Goal), ...errorResponses } },
    handler: async (req, reply) => sendArrayPage(req, reply, req.query.limit, s.goals.list(req.actor, req.params.companyId, req.query)),
  });
  app.post('/api/companies/:companyId/goals', {
    schema: { tags, params: CompanyIdParams, body: CreateGoalBody, response: { 201: Goal, ...errorResponses } },
    handler: (req, reply) => {
      reply.code(201).send(s.goals.create(req.actor, req.params.companyId, req.body));
    },
  });
  app.get('/api/goals/:goalId', {
    schema: { tags, params: GoalIdParams, response: { 200: Goal, ...errorResponses } },
    handler: (req) => s.goals.get(req.actor, req.params.goalId),
  });
  app.patch('/api/goals/:goalId', {
    schema: { tags, params: GoalIdParams, body: PatchGoalBody, response: { 200: Goal, ...errorResponses } },
    handler: (req) => s.goals.patch(req.actor, req.params.goalId, req.body),
  });
};
