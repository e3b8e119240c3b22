import { z } from 'zod';
import type { RouteRegistrar } from '../kernel/route.js';
import { errorResponses } from '../kernel/route.js';
import { CompanyIdParams, EmptyBody } from '../kernel/common-contract.js';
import { ArrayPageQuery, ARRAY_PAGE_DESCRIPTION, sendArrayPage } from '../kernel/header-page.js';
import {
  ActivityIdParams,
  ActivityPage,
  BulkApproveBody,
  BulkApproveResult,
  CrmActivity,
  CrmSettings,
  ListActivitiesQuery,
  QuotaRow,
  RejectBody,
  SendBody,
  SendResult,
  UpdateCrmSettingsBody,
} from './contract.js';
import { crmConfigRoutes } from './routes-config.js';

const tags = ['crm'];

/** Sending, approving and reading what was sent. Outboxes, allowlist, rules and content pieces: routes-config.ts. */
export const crmRoutes: RouteRegistrar = (app, s) => {
  crmConfigRoutes(app, s);
  const base = '/api/companies/:companyId/crm';

  app.post(`${base}/send`, {
    schema: {
      tags,
      summary: 'Send through the dispatcher: allowlist → approval rules → quota → channel. Every outcome is 200 with the activity status.',
      params: CompanyIdParams,
      body: SendBody,
      response: { 200: SendResult, ...errorResponses },
    },
    handler: (req) => s.crm.send(req.actor, req.params.companyId, req.body),
  });

  app.get(`${base}/activities`, {
    schema: { tags, summary: 'Outbound activities, newest first', params: CompanyIdParams, querystring: ListActivitiesQuery, response: { 200: ActivityPage, ...errorResponses } },
    handler: (req) => s.crm.activities.list(req.actor, req.params.companyId, req.query),
  });

  app.get(`${base}/activities/:activityId`, {
    schema: { tags, summary: 'One outbound activity', params: ActivityIdParams, response: { 200: CrmActivity, ...errorResponses } },
    handler: (req) => s.crm.activities.get(req.actor, req.params.companyId, req.params.activityId),
  });

  app.post(`${base}/activities/:activityId/approve`, {
    schema: {
      tags,
      summary: 'Approve one draft (board) and dispatch it without the approval rules; 409 not_pending when it is not a pending draft',
      params: ActivityIdParams,
      body: EmptyBody,
      response: { 200: CrmActivity, ...errorResponses },
    },
    handler: (req) => s.crm.approve(req.actor, req.params.companyId, req.params.activityId),
  });

  app.post(`${base}/activities/:activityId/reject`, {
    schema: { tags, summary: 'Reject one draft (board): it becomes rejected and is never sent', params: ActivityIdParams, body: RejectBody, response: { 200: CrmActivity, ...errorResponses } },
    handler: (req) => s.crm.activities.reject(req.actor, req.params.companyId, req.params.activityId, req.body?.note),
  });

  app.post(`${base}/approvals/bulk-approve`, {
    schema: {
      tags,
      summary:
        'Approve drafts in one transaction, then dispatch each (instance administrators only; others 403). Any id that is not a pending draft refuses the whole request (409 not_pending, with each reason).',
      params: CompanyIdParams,
      body: BulkApproveBody,
      response: { 200: BulkApproveResult, ...errorResponses },
    },
    handler: (req) => s.crm.bulkApprove(req.actor, req.params.companyId, req.body.approvalIds),
  });

  app.get(`${base}/quota`, {
    schema: {
      tags,
      summary: "Today's quota (UTC day) per live outbox: used, cap, remaining, reset time; in the outboxes' order (oldest first), one page at a time",
      description: ARRAY_PAGE_DESCRIPTION,
      params: CompanyIdParams,
      querystring: z.strictObject(ArrayPageQuery),
      response: { 200: z.array(QuotaRow), ...errorResponses },
    },
    handler: async (req, reply) => sendArrayPage(req, reply, req.query.limit, s.crm.activities.quota(req.actor, req.params.companyId, req.query)),
  });

  app.get('/api/admin/crm/settings', {
    schema: { tags, summary: 'Instance CRM settings (board): the global dry-run switch', response: { 200: CrmSettings, ...errorResponses } },
    handler: (req) => s.crm.activities.settings(req.actor),
  });

  app.put('/api/admin/crm/settings', {
    schema: { tags, summary: 'Set the global dry-run switch (board). On: every send becomes sent_dryrun.', body: UpdateCrmSettingsBody, response: { 200: CrmSettings, ...errorResponses } },
    handler: (req) => s.crm.activities.updateSettings(req.actor, req.body),
  });
};
