import { z } from 'zod';
import type { RouteRegistrar } from '../kernel/route.js';
import { errorResponses } from '../kernel/route.js';
import { CompanyIdParams, Id } from '../kernel/common-contract.js';
import { AgentIdParams } from '../agents/contract.js';
import { HeartbeatRun, HeartbeatSettings, InstanceSettings, ListRunsQuery, PutHeartbeatSettingsBody, PutInstanceSettingsBody, RunLogPage } from './contract.js';

const tags = ['heartbeats'];
const RunIdParams = z.strictObject({ runId: Id });

const InvokeResponse = z
  .object({
    wakeRequestId: Id,
    runId: Id.nullable().describe('The run this wake is part of, status queued when answered (behind a running run of the agent, it starts when that ends); null while the agent is rate limited: the wake waits for the reset'),
    coalesced: z.boolean().describe('True when the wake joined a run that was already queued'),
  })
  .meta({ id: 'HeartbeatInvokeResult' });

export const heartbeatRoutes: RouteRegistrar = (app, s) => {
  app.post('/api/agents/:agentId/heartbeat/invoke', {
    schema: {
      tags,
      summary: 'Start a heartbeat now: answers with the queued run it started or coalesced into (follow it with GET /api/heartbeat-runs/{runId}); 409 when the agent may not run',
      params: AgentIdParams,
      body: z.strictObject({ issueId: Id.optional().describe('Focus the run on this issue') }).nullish(),
      response: { 202: InvokeResponse, ...errorResponses },
    },
    handler: (req, reply) => {
      reply.code(202).send(s.runs.invoke(req.actor, req.params.agentId, req.body?.issueId));
    },
  });

  app.get('/api/companies/:companyId/heartbeat-runs', {
    schema: { tags, summary: 'Runs, newest first', params: CompanyIdParams, querystring: ListRunsQuery, response: { 200: z.object({ items: z.array(HeartbeatRun), nextCursor: z.string().nullable() }), ...errorResponses } },
    handler: (req) => s.runs.list(req.actor, req.params.companyId, req.query),
  });

  app.get('/api/heartbeat-runs/:runId', {
    schema: { tags, params: RunIdParams, response: { 200: HeartbeatRun, ...errorResponses } },
    handler: (req) => s.runs.get(req.actor, req.params.runId),
  });

  app.get('/api/heartbeat-runs/:runId/log', {
    schema: {
      tags,
      summary: 'Transcript records from a byte offset; follow live ones on the event stream (run.log)',
      params: RunIdParams,
      querystring: z.strictObject({ offset: z.coerce.number().int().min(0).default(0) }),
      response: { 200: RunLogPage, ...errorResponses },
    },
    handler: (req) => s.runs.log(req.actor, req.params.runId, req.query.offset),
  });

  app.post('/api/heartbeat-runs/:runId/cancel', {
    schema: { tags, summary: 'Stop the run: its whole process tree is killed', params: RunIdParams, body: z.strictObject({}).nullish(), response: { 200: HeartbeatRun, ...errorResponses } },
    handler: (req) => s.runs.cancel(req.actor, req.params.runId),
  });

  app.get('/api/settings', {
    schema: { tags: ['settings'], summary: 'Instance settings (board)', response: { 200: InstanceSettings, ...errorResponses } },
    handler: (req) => s.runs.instanceSettings(req.actor),
  });

  // PUT and PATCH alike: only the fields given change.
  for (const method of ['put', 'patch'] as const) {
    app[method]('/api/settings', {
      schema: { tags: ['settings'], summary: 'Change instance settings (board); only the fields given change', body: PutInstanceSettingsBody, response: { 200: InstanceSettings, ...errorResponses } },
      handler: (req) => s.runs.putInstanceSettings(req.actor, req.body),
    });
  }

  app.get('/api/agents/:agentId/heartbeat-settings', {
    schema: { tags, params: AgentIdParams, response: { 200: HeartbeatSettings, ...errorResponses } },
    handler: (req) => s.runs.settings(req.actor, req.params.agentId),
  });

  app.put('/api/agents/:agentId/heartbeat-settings', {
    schema: { tags, summary: 'Schedule (board)', params: AgentIdParams, body: PutHeartbeatSettingsBody, response: { 200: HeartbeatSettings, ...errorResponses } },
    handler: (req) => s.runs.putSettings(req.actor, req.params.agentId, req.body),
  });
};
