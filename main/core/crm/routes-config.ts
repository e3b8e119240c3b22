import { z } from 'zod';
import type { ZodApp } from '../kernel/route.js';
import { errorResponses } from '../kernel/route.js';
import { CompanyIdParams } from '../kernel/common-contract.js';
import { ArrayPageQuery, ARRAY_PAGE_DESCRIPTION, sendArrayPage } from '../kernel/header-page.js';
import type { RouteServices } from '../kernel/route.js';
import {
  AllowlistEntry,
  AllowlistEntryIdParams,
  ApprovalRule,
  ContentPiece,
  ContentPieceIdParams,
  CreateAllowlistEntryBody,
  CreateContentPieceBody,
  CreateOutboxBody,
  CreateRuleBody,
  ListAllowlistQuery,
  ListContentPiecesQuery,
  Outbox,
  OutboxIdParams,
  PreviewRuleBody,
  PreviewRuleResult,
  RuleIdParams,
  UpdateContentPieceBody,
  UpdateOutboxBody,
  UpdateRuleBody,
} from './contract.js';

const tags = ['crm'];
const base = '/api/companies/:companyId/crm';

/** Outboxes, allowlist, approval rules and content pieces (spec 4.8). */
export function crmConfigRoutes(app: ZodApp, s: RouteServices): void {
  // ---- Outboxes
  app.get(`${base}/outboxes`, {
    schema: { tags, summary: 'Live outboxes of the company, oldest first, one page at a time', description: ARRAY_PAGE_DESCRIPTION, params: CompanyIdParams, querystring: z.strictObject(ArrayPageQuery), response: { 200: z.array(Outbox), ...errorResponses } },
    handler: async (req, reply) => sendArrayPage(req, reply, req.query.limit, s.crm.outboxes.list(req.actor, req.params.companyId, req.query)),
  });
  app.post(`${base}/outboxes`, {
    schema: { tags, summary: 'Create an outbox (board; 201)', params: CompanyIdParams, body: CreateOutboxBody, response: { 201: Outbox, ...errorResponses } },
    handler: (req, reply) => {
      reply.code(201).send(s.crm.outboxes.create(req.actor, req.params.companyId, req.body));
    },
  });
  app.patch(`${base}/outboxes/:outboxId`, {
    schema: { tags, summary: 'Change an outbox (board)', params: OutboxIdParams, body: UpdateOutboxBody, response: { 200: Outbox, ...errorResponses } },
    handler: (req) => s.crm.outboxes.update(req.actor, req.params.companyId, req.params.outboxId, req.body),
  });
  app.delete(`${base}/outboxes/:outboxId`, {
    schema: { tags, summary: 'Soft-delete an outbox (board); returns it with deletedAt', params: OutboxIdParams, response: { 200: Outbox, ...errorResponses } },
    handler: (req) => s.crm.outboxes.remove(req.actor, req.params.companyId, req.params.outboxId),
  });

  // ---- Allowlist
  app.get(`${base}/allowlist`, {
    schema: { tags, summary: 'Allowlist entries (default deny: no entry, no send), oldest first, one page at a time', description: ARRAY_PAGE_DESCRIPTION, params: CompanyIdParams, querystring: ListAllowlistQuery.extend(ArrayPageQuery), response: { 200: z.array(AllowlistEntry), ...errorResponses } },
    handler: async (req, reply) => sendArrayPage(req, reply, req.query.limit, s.crm.allowlist.list(req.actor, req.params.companyId, req.query, req.query)),
  });
  app.post(`${base}/allowlist`, {
    schema: { tags, summary: 'Add an allowlist entry (board; 201; 409 when the same entry exists)', params: CompanyIdParams, body: CreateAllowlistEntryBody, response: { 201: AllowlistEntry, ...errorResponses } },
    handler: (req, reply) => {
      reply.code(201).send(s.crm.allowlist.create(req.actor, req.params.companyId, req.body));
    },
  });
  app.delete(`${base}/allowlist/:entryId`, {
    schema: { tags, summary: 'Remove an allowlist entry (board; 204)', params: AllowlistEntryIdParams, response: { 204: z.null(), ...errorResponses } },
    handler: async (req, reply) => {
      s.crm.allowlist.remove(req.actor, req.params.companyId, req.params.entryId);
      return reply.code(204).send(null);
    },
  });

  // ---- Approval rules
  app.get(`${base}/approval-rules`, {
    schema: { tags, summary: 'Approval rules in evaluation order (priority ascending, then creation), one page at a time', description: ARRAY_PAGE_DESCRIPTION, params: CompanyIdParams, querystring: z.strictObject(ArrayPageQuery), response: { 200: z.array(ApprovalRule), ...errorResponses } },
    handler: async (req, reply) => sendArrayPage(req, reply, req.query.limit, s.crm.rules.list(req.actor, req.params.companyId, req.query)),
  });
  app.post(`${base}/approval-rules`, {
    schema: { tags, summary: 'Create an approval rule (board; 201)', params: CompanyIdParams, body: CreateRuleBody, response: { 201: ApprovalRule, ...errorResponses } },
    handler: (req, reply) => {
      reply.code(201).send(s.crm.rules.create(req.actor, req.params.companyId, req.body));
    },
  });
  app.patch(`${base}/approval-rules/:ruleId`, {
    schema: { tags, summary: 'Change an approval rule (board)', params: RuleIdParams, body: UpdateRuleBody, response: { 200: ApprovalRule, ...errorResponses } },
    handler: (req) => s.crm.rules.update(req.actor, req.params.companyId, req.params.ruleId, req.body),
  });
  app.delete(`${base}/approval-rules/:ruleId`, {
    schema: { tags, summary: 'Delete an approval rule (board; 204)', params: RuleIdParams, response: { 204: z.null(), ...errorResponses } },
    handler: async (req, reply) => {
      s.crm.rules.remove(req.actor, req.params.companyId, req.params.ruleId);
      return reply.code(204).send(null);
    },
  });
  app.post(`${base}/approval-rules/:ruleId/preview`, {
    schema: { tags, summary: 'Would this rule match such a message? Returns matches and action; writes nothing', params: RuleIdParams, body: PreviewRuleBody, response: { 200: PreviewRuleResult, ...errorResponses } },
    handler: (req) => s.crm.rules.preview(req.actor, req.params.companyId, req.params.ruleId, req.body),
  });

  // ---- Content pieces
  app.get(`${base}/content-pieces`, {
    schema: {
      tags,
      summary: 'Live content pieces, oldest first, one page at a time; filter by niche, channelIntent, sourcePath (exact), issueId',
      description: ARRAY_PAGE_DESCRIPTION,
      params: CompanyIdParams,
      querystring: ListContentPiecesQuery.extend(ArrayPageQuery),
      response: { 200: z.array(ContentPiece), ...errorResponses },
    },
    handler: async (req, reply) => sendArrayPage(req, reply, req.query.limit, s.crm.contentPieces.list(req.actor, req.params.companyId, req.query, req.query)),
  });
  app.post(`${base}/content-pieces`, {
    schema: { tags, summary: 'Create a content piece (201; 409 when the sourcePath is taken)', params: CompanyIdParams, body: CreateContentPieceBody, response: { 201: ContentPiece, ...errorResponses } },
    handler: (req, reply) => {
      reply.code(201).send(s.crm.contentPieces.create(req.actor, req.params.companyId, req.body));
    },
  });
  app.get(`${base}/content-pieces/:pieceId`, {
    schema: { tags, summary: 'One content piece', params: ContentPieceIdParams, response: { 200: ContentPiece, ...errorResponses } },
    handler: (req) => s.crm.contentPieces.get(req.actor, req.params.companyId, req.params.pieceId),
  });
  app.patch(`${base}/content-pieces/:pieceId`, {
    schema: { tags, summary: 'Change a content piece (same limits as create)', params: ContentPieceIdParams, body: UpdateContentPieceBody, response: { 200: ContentPiece, ...errorResponses } },
    handler: (req) => s.crm.contentPieces.update(req.actor, req.params.companyId, req.params.pieceId, req.body),
  });
  app.delete(`${base}/content-pieces/:pieceId`, {
    schema: { tags, summary: 'Soft-delete a content piece; its sourcePath becomes free', params: ContentPieceIdParams, response: { 200: ContentPiece, ...errorResponses } },
    handler: (req) => s.crm.contentPieces.remove(req.actor, req.params.companyId, req.params.pieceId),
  });
}
