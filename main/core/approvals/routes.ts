import { z } from 'zod';
import type { RouteRegistrar } from '../kernel/route.js';
import { errorResponses } from '../kernel/route.js';
import { ArrayPageQuery, ARRAY_PAGE_DESCRIPTION, sendArrayPage } from '../kernel/header-page.js';
import { CompanyIdParams } from '../kernel/common-contract.js';
import { Issue } from '../issues/contract.js';
import {
  Approval,
  ApprovalComment,
  ApprovalDetail,
  ApprovalIdParams,
  CreateApprovalBody,
  CreateApprovalCommentBody,
  CreateHireBody,
  DecisionBody,
  HireResult,
  ListApprovalsQuery,
  ResubmitBody,
} from './contract.js';
import { approvalSeenBy } from './hire.js';

const tags = ['approvals'];
const detail = { 200: ApprovalDetail, ...errorResponses };

export const approvalsRoutes: RouteRegistrar = (app, s) => {
  app.get('/api/companies/:companyId/approvals', {
    schema: { tags, summary: 'Approvals of the company, newest first, one page at a time', description: ARRAY_PAGE_DESCRIPTION, params: CompanyIdParams, querystring: ListApprovalsQuery.extend(ArrayPageQuery), response: { 200: z.array(Approval), ...errorResponses } },
    handler: async (req, reply) => {
      const page = s.approvals.list(req.actor, req.params.companyId, req.query.status, req.query, req.query.issueId);
      return sendArrayPage(req, reply, req.query.limit, { ...page, items: page.items.map((a) => approvalSeenBy(s.ctx.db, req.actor, a)) });
    },
  });

  app.post('/api/companies/:companyId/approvals', {
    schema: {
      tags,
      summary: 'Request an approval (201, pending). Hires go through agent-hires.',
      params: CompanyIdParams,
      body: CreateApprovalBody,
      response: { 201: ApprovalDetail, ...errorResponses },
    },
    handler: (req, reply) => {
      reply.code(201).send(approvalSeenBy(s.ctx.db, req.actor, s.approvals.create(req.actor, req.params.companyId, req.body)));
    },
  });

  app.post('/api/companies/:companyId/agent-hires', {
    schema: {
      tags,
      summary: "Request a hire: a draft agent and its pending hire_agent approval, in one transaction (201). Only name, role, reportsTo, capabilities and budgetMonthlyCents are needed; without adapterType the hire runs like its manager (credentials not copied)",
      params: CompanyIdParams,
      body: CreateHireBody,
      response: { 201: HireResult, ...errorResponses },
    },
    handler: (req, reply) => {
      reply.code(201).send(s.approvals.hires.create(req.actor, req.params.companyId, req.body));
    },
  });

  app.get('/api/approvals/:approvalId', {
    schema: { tags, summary: 'One approval with its decision history', params: ApprovalIdParams, response: detail },
    handler: (req) => approvalSeenBy(s.ctx.db, req.actor, s.approvals.get(req.actor, req.params.approvalId)),
  });

  const decisions = [
    ['approve', 'approve', 'Approve a pending approval (board); a hire activates its draft agent'],
    ['reject', 'reject', 'Reject a pending approval (board); a hire terminates its draft agent'],
    ['request-revision', 'requestRevision', 'Ask the requester to revise a pending approval (board)'],
  ] as const;
  for (const [path, method, summary] of decisions) {
    app.post(`/api/approvals/:approvalId/${path}`, {
      schema: { tags, summary, params: ApprovalIdParams, body: DecisionBody, response: detail },
      handler: (req) => approvalSeenBy(s.ctx.db, req.actor, s.approvals[method](req.actor, req.params.approvalId, req.body?.decisionNote)),
    });
  }

  app.post('/api/approvals/:approvalId/resubmit', {
    schema: {
      tags,
      summary: 'Resubmit a revision_requested approval with a new payload (the requester or the board); it becomes pending again',
      params: ApprovalIdParams,
      body: ResubmitBody,
      response: detail,
    },
    handler: (req) => approvalSeenBy(s.ctx.db, req.actor, s.approvals.resubmit(req.actor, req.params.approvalId, req.body.payload)),
  });

  app.get('/api/approvals/:approvalId/issues', {
    schema: { tags, summary: 'Issues linked to the approval, in the order they were linked, one page at a time', description: ARRAY_PAGE_DESCRIPTION, params: ApprovalIdParams, querystring: z.strictObject(ArrayPageQuery), response: { 200: z.array(Issue), ...errorResponses } },
    handler: async (req, reply) => sendArrayPage(req, reply, req.query.limit, s.approvals.linkedIssues(req.actor, req.params.approvalId, req.query)),
  });

  app.get('/api/approvals/:approvalId/comments', {
    schema: { tags, summary: 'Comments on the approval, oldest first, one page at a time', description: ARRAY_PAGE_DESCRIPTION, params: ApprovalIdParams, querystring: z.strictObject(ArrayPageQuery), response: { 200: z.array(ApprovalComment), ...errorResponses } },
    handler: async (req, reply) => sendArrayPage(req, reply, req.query.limit, s.approvals.comments.list(req.actor, req.params.approvalId, req.query)),
  });

  app.post('/api/approvals/:approvalId/comments', {
    schema: { tags, summary: 'Comment on the approval (markdown; the board or an agent of the company)', params: ApprovalIdParams, body: CreateApprovalCommentBody, response: { 201: ApprovalComment, ...errorResponses } },
    handler: (req, reply) => {
      reply.code(201).send(s.approvals.comments.create(req.actor, req.params.approvalId, req.body.body));
    },
  });
};
