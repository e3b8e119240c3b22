import { z } from 'zod';
import type { RouteRegistrar } from '../kernel/route.js';
import { errorResponses } from '../kernel/route.js';
import { ArrayPageQuery, ARRAY_PAGE_DESCRIPTION, sendArrayPage } from '../kernel/header-page.js';
import { CompanyIdParams, EmptyBody, Id } from '../kernel/common-contract.js';
import { badRequest, ServiceError } from '../kernel/errors.js';
import {
  AdapterModel,
  Agent,
  AgentIdParams,
  AgentKey,
  ConfigRevision,
  CreateAgentBody,
  CreatedAgentKey,
  CreateKeyBody,
  OrgNode,
  OrgQuery,
  PatchAgentBody,
} from './contract.js';
import { companyOrg } from './org.js';
import { assertCompany } from '../companies/service.js';

const tags = ['agents'];

export const agentsRoutes: RouteRegistrar = (app, s) => {
  app.get('/api/companies/:companyId/agents', {
    schema: {
      tags,
      summary: 'All agents of the company, terminated ones included. Takes no query parameters.',
      params: CompanyIdParams,
      response: { 200: z.array(Agent), ...errorResponses },
    },
    handler: (req) => {
      const names = Object.keys((req.query as Record<string, unknown> | undefined) ?? {});
      if (names.length > 0) {
        throw badRequest('unsupported_query_parameter', `query.${names[0]}: this route takes no query parameters`, {
          problems: names.map((n) => ({ location: 'query', path: `query.${n}`, message: 'not supported' })),
        });
      }
      return s.agents.list(req.actor, req.params.companyId);
    },
  });

  app.post('/api/companies/:companyId/agents', {
    schema: { tags, summary: 'Create an agent (board; agents use hire requests)', params: CompanyIdParams, body: CreateAgentBody, response: { 201: Agent, ...errorResponses } },
    handler: (req, reply) => {
      reply.code(201).send(s.agents.create(req.actor, req.params.companyId, req.body));
    },
  });

  app.get('/api/agents/me', {
    schema: { tags, summary: 'The agent behind the credential', response: { 200: Agent, ...errorResponses } },
    handler: (req) => s.agents.me(req.actor),
  });

  app.get('/api/agents/:agentId', {
    schema: { tags, summary: 'One agent with its chain of command', params: AgentIdParams, response: { 200: Agent, ...errorResponses } },
    handler: (req) => s.agents.get(req.actor, req.params.agentId),
  });

  app.patch('/api/agents/:agentId', {
    schema: {
      tags,
      summary: 'Update an agent. Agents may change only their own title and capabilities.',
      params: AgentIdParams,
      body: PatchAgentBody,
      response: { 200: Agent, ...errorResponses },
    },
    handler: (req) => s.agents.patch(req.actor, req.params.agentId, req.body),
  });

  for (const action of ['pause', 'resume', 'terminate'] as const) {
    app.post(`/api/agents/:agentId/${action}`, {
      schema: { tags, summary: `${action[0]!.toUpperCase()}${action.slice(1)} the agent (board)`, params: AgentIdParams, body: EmptyBody, response: { 200: Agent, ...errorResponses } },
      handler: (req) => s.agents[action](req.actor, req.params.agentId),
    });
  }

  app.post('/api/agents/:agentId/keys', {
    schema: { tags, summary: 'Create a long-lived API key; the full key is in this response only (board)', params: AgentIdParams, body: CreateKeyBody, response: { 201: CreatedAgentKey, ...errorResponses } },
    handler: (req, reply) => {
      reply.code(201).send(s.agentKeys.create(req.actor, req.params.agentId, req.body?.name));
    },
  });

  app.get('/api/agents/:agentId/keys', {
    schema: { tags, summary: 'Keys of the agent, newest first, revoked ones included, one page at a time (board)', description: ARRAY_PAGE_DESCRIPTION, params: AgentIdParams, querystring: z.strictObject(ArrayPageQuery), response: { 200: z.array(AgentKey), ...errorResponses } },
    handler: async (req, reply) => sendArrayPage(req, reply, req.query.limit, s.agentKeys.list(req.actor, req.params.agentId, req.query)),
  });

  app.delete('/api/agents/:agentId/keys/:keyId', {
    schema: { tags, summary: 'Revoke a key (board)', params: z.strictObject({ agentId: Id, keyId: Id }), response: { 200: AgentKey, ...errorResponses } },
    handler: (req) => s.agentKeys.revoke(req.actor, req.params.agentId, req.params.keyId),
  });

  app.get('/api/agents/:agentId/config-revisions', {
    schema: { tags, summary: 'Configuration revisions, newest first, one page at a time', description: ARRAY_PAGE_DESCRIPTION, params: AgentIdParams, querystring: z.strictObject(ArrayPageQuery), response: { 200: z.array(ConfigRevision), ...errorResponses } },
    handler: async (req, reply) => sendArrayPage(req, reply, req.query.limit, s.agents.revisions(req.actor, req.params.agentId, req.query)),
  });

  app.post('/api/agents/:agentId/config-revisions/:revisionId/rollback', {
    schema: {
      tags,
      summary: 'Restore an earlier configuration as a new revision (board)',
      params: z.strictObject({ agentId: Id, revisionId: Id }),
      body: EmptyBody,
      response: { 200: Agent, ...errorResponses },
    },
    handler: (req) => s.agents.rollback(req.actor, req.params.agentId, req.params.revisionId),
  });

  app.get('/api/companies/:companyId/org', {
    schema: { tags, summary: 'The org chart as a forest of reporting lines', params: CompanyIdParams, querystring: OrgQuery, response: { 200: z.array(OrgNode), ...errorResponses } },
    handler: (req) => {
      assertCompany(s.ctx.db, req.actor, req.params.companyId);
      return companyOrg(s.ctx.db, req.params.companyId, req.query.includeTerminated === 'true');
    },
  });

  app.get('/api/companies/:companyId/adapters/:adapterType/models', {
    schema: {
      tags,
      summary: 'Selectable models of an adapter type',
      params: z.strictObject({ companyId: Id, adapterType: z.string().max(64) }),
      response: { 200: z.array(AdapterModel), ...errorResponses },
    },
    handler: async (req) => {
      assertCompany(s.ctx.db, req.actor, req.params.companyId);
      const models = await s.ctx.adapters.models(req.params.adapterType);
      if (!models) throw new ServiceError(404, 'unknown_adapter_type', `No adapter of type "${req.params.adapterType}" is installed`);
      return models;
    },
  });
};
