import { z } from 'zod';
import type { RouteRegistrar } from '../kernel/route.js';
import { errorResponses } from '../kernel/route.js';
import { GROUPED } from '../context.js';
import { CompanyIdParams } from '../kernel/common-contract.js';
import { AgentCosts, CostEvent, CostSummary, CostsQuery, CreateCostEventBody, ProjectCosts } from './contract.js';

const tags = ['costs'];
const monthNote = 'Current UTC month, or ?month=YYYY-MM for another one. Board and the company agents may read.';

export const costsRoutes: RouteRegistrar = (app, s) => {
  app.post('/api/companies/:companyId/cost-events', {
    schema: {
      tags,
      summary: 'Report a cost event (an agent only for itself); applies the 80% / 100% budget rules',
      params: CompanyIdParams,
      body: CreateCostEventBody,
      response: { 201: CostEvent, ...errorResponses },
    },
    // Answered in the same turn as the write: it may share the turn's commit (context.ts).
    handler: (req, reply) => {
      reply.code(201).send(s.costs.record(req.actor, req.params.companyId, req.body, GROUPED));
    },
  });
  app.get('/api/companies/:companyId/costs/summary', {
    schema: { tags, summary: `Company spend, budget and utilization. ${monthNote}`, params: CompanyIdParams, querystring: CostsQuery, response: { 200: CostSummary, ...errorResponses } },
    handler: (req) => s.costs.summary(req.actor, req.params.companyId, req.query.month),
  });
  app.get('/api/companies/:companyId/costs/by-agent', {
    schema: { tags, summary: `Spend per agent, every agent listed. ${monthNote}`, params: CompanyIdParams, querystring: CostsQuery, response: { 200: z.array(AgentCosts), ...errorResponses } },
    handler: (req) => s.costs.byAgent(req.actor, req.params.companyId, req.query.month),
  });
  app.get('/api/companies/:companyId/costs/by-project', {
    schema: { tags, summary: `Spend per project, plus unassigned. ${monthNote}`, params: CompanyIdParams, querystring: CostsQuery, response: { 200: z.array(ProjectCosts), ...errorResponses } },
    handler: (req) => s.costs.byProject(req.actor, req.params.companyId, req.query.month),
  });
};
