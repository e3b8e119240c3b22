import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { RouteRegistrar } from '../kernel/route.js';
import { errorResponses } from '../kernel/route.js';
import { CompanyIdParams, EmptyBody } from '../kernel/common-contract.js';
import { ServiceError, badRequest } from '../kernel/errors.js';
import { CheckoutBody, Comment, CreateCommentBody, CreateIssueBody, Issue, IssueDetail, IssuePage, IssueWithLinks, ListCommentsQuery, ListIssuesQuery, PatchIssueBody } from './contract.js';
import { AddBlockerBody, BlockerParams, IssueDependencies } from './blockers-contract.js';
import { retryAfterOnError } from '../limits/service.js';
import { IssueIdParams } from './params.js';
import type { Services } from '../services.js';

const tags = ['issues'];
const RUN_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The run id of a heartbeat comes only from `X-Service-Run-Id` (spec 4.7 rule 1). A run token
 * already names its run; a header that disagrees with it is refused.
 */
export function runIdOf(req: FastifyRequest, s?: Services): string | null {
  const header = req.headers['x-service-run-id'];
  const value = Array.isArray(header) ? header[0] : header;
  if (value !== undefined && !RUN_ID.test(value)) throw badRequest('invalid_run_id', 'headers.x-service-run-id: must be 1-128 letters, digits or ._:-');
  const tokenRun = req.actor.kind === 'agent' ? req.actor.runId : null;
  if (tokenRun && value !== undefined && value !== tokenRun) throw new ServiceError(403, 'run_id_mismatch', 'X-Service-Run-Id does not match the run of this token');
  // With a long-lived agent key the header must name an active run of that same agent.
  if (value !== undefined && !tokenRun && req.actor.kind === 'agent' && s) {
    if (s.ctx.runs.activeRunAgent(value) !== req.actor.agentId) {
      throw new ServiceError(403, 'run_not_active', 'X-Service-Run-Id must name an active heartbeat run of this agent');
    }
  }
  return value ?? tokenRun ?? null;
}

const RunHeader = z.object({ 'x-service-run-id': z.string().optional().describe('Heartbeat run id; the only source of the run id') });

const CheckoutBodyNoRunId = CheckoutBody.extend({
  runId: z.undefined({ message: 'the run id comes only from the X-Service-Run-Id header' }).optional(),
});

export const issuesRoutes: RouteRegistrar = (app, s) => {
  app.get('/api/companies/:companyId/issues', {
    schema: { tags, summary: 'Issues sorted by priority, then most recent activity', params: CompanyIdParams, querystring: ListIssuesQuery, response: { 200: IssuePage, ...errorResponses } },
    handler: (req) => s.issues.list(req.actor, req.params.companyId, req.query),
  });

  app.post('/api/companies/:companyId/issues', {
    schema: { tags, params: CompanyIdParams, body: CreateIssueBody, response: { 201: IssueWithLinks, ...errorResponses } },
    handler: (req, reply) => {
      reply.code(201).send(s.issues.create(req.actor, req.params.companyId, req.body));
    },
  });

  app.get('/api/issues/:issueId', {
    schema: { tags, summary: 'One issue by id or identifier, with project, goal, ancestors and documents', params: IssueIdParams, response: { 200: IssueDetail, ...errorResponses } },
    handler: (req) => s.issues.get(req.actor, req.params.issueId),
  });

  app.delete('/api/issues/:issueId', {
    schema: { tags, summary: 'Delete the issue (board only; soft: gone from lists and lookups, open work on it cancelled)', params: IssueIdParams, response: { 204: z.null(), ...errorResponses } },
    handler: async (req, reply) => {
      s.issues.remove(req.actor, req.params.issueId);
      return reply.code(204).send(null);
    },
  });

  app.patch('/api/issues/:issueId', {
    onError: retryAfterOnError,
    schema: { tags, params: IssueIdParams, headers: RunHeader, body: PatchIssueBody, response: { 200: IssueWithLinks, ...errorResponses } },
    handler: (req) => {
      runIdOf(req, s);
      return s.issues.patch(req.actor, req.params.issueId, req.body);
    },
  });

  app.post('/api/issues/:issueId/checkout', {
    schema: {
      tags,
      summary: 'Claim the issue atomically (status in_progress). A 409 must not be retried.',
      params: IssueIdParams,
      headers: RunHeader,
      body: CheckoutBodyNoRunId,
      response: { 200: Issue, ...errorResponses },
    },
    handler: (req) => s.checkout.checkout(req.actor, req.params.issueId, { agentId: req.body.agentId, expectedStatuses: req.body.expectedStatuses, runId: runIdOf(req, s) }),
  });

  app.post('/api/issues/:issueId/release', {
    schema: { tags, summary: 'Give the checkout back (in_progress returns to todo)', params: IssueIdParams, body: EmptyBody, response: { 200: Issue, ...errorResponses } },
    handler: (req) => s.checkout.release(req.actor, req.params.issueId),
  });

  app.post('/api/issues/:issueId/blockers', {
    schema: { tags, summary: 'The issue waits for another issue of its company (409 dependency_cycle on a cycle)', params: IssueIdParams, body: AddBlockerBody, response: { 200: IssueDependencies, ...errorResponses } },
    handler: (req) => s.blockers.add(req.actor, req.params.issueId, req.body.blockerIssueId),
  });

  app.delete('/api/issues/:issueId/blockers/:blockerIssueId', {
    schema: { tags, summary: 'Removes a blocker; removing the last open one wakes the assignee', params: BlockerParams, response: { 200: IssueDependencies, ...errorResponses } },
    handler: (req) => s.blockers.remove(req.actor, req.params.issueId, req.params.blockerIssueId),
  });

  app.get('/api/issues/:issueId/comments', {
    schema: {
      tags,
      summary: 'Comments, oldest first, one page at a time (default 100, at most 500)',
      description:
        'The body is a plain array, as the spec shows. When more comments follow, the response has an `X-Next-Cursor` header and a `Link: <...>; rel="next"` header; pass the cursor as `after` for the next page.',
      params: IssueIdParams,
      querystring: ListCommentsQuery,
      response: { 200: z.array(Comment), ...errorResponses },
    },
    handler: async (req, reply) => {
      const page = s.comments.list(req.actor, req.params.issueId, req.query);
      if (page.nextCursor) {
        const next = `/api/issues/${encodeURIComponent(req.params.issueId)}/comments?limit=${req.query.limit}&after=${page.nextCursor}`;
        void reply.header('x-next-cursor', page.nextCursor).header('link', `<${next}>; rel="next"`);
      }
      return page.items;
    },
  });

  app.post('/api/issues/:issueId/comments', {
    onError: retryAfterOnError,
    schema: { tags, summary: 'Comment (markdown); @Name mentions wake those agents', params: IssueIdParams, body: CreateCommentBody, response: { 201: Comment, ...errorResponses } },
    handler: (req, reply) => {
      reply.code(201).send(s.comments.create(req.actor, req.params.issueId, req.body.body));
    },
  });
};
