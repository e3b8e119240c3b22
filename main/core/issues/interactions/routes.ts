import { z } from 'zod';
import type { RouteRegistrar } from '../../kernel/route.js';
import { errorResponses } from '../../kernel/route.js';
import { ArrayPageQuery, ARRAY_PAGE_DESCRIPTION, sendArrayPage } from '../../kernel/header-page.js';
import { IssueIdParams } from '../params.js';
import { AcceptInteractionBody, CreateInteractionBody, Interaction, InteractionParams, RejectInteractionBody, RespondInteractionBody } from './contract.js';

const tags = ['issue interactions'];
const resolved = { 200: Interaction, ...errorResponses };

export const issueInteractionsRoutes: RouteRegistrar = (app, s) => {
  app.get('/api/issues/:issueId/interactions', {
    schema: { tags, summary: 'Interactions of the issue, oldest first, one page at a time', description: ARRAY_PAGE_DESCRIPTION, params: IssueIdParams, querystring: z.strictObject(ArrayPageQuery), response: { 200: z.array(Interaction), ...errorResponses } },
    handler: async (req, reply) => sendArrayPage(req, reply, req.query.limit, s.issueInteractions.list(req.actor, req.params.issueId, req.query)),
  });

  app.post('/api/issues/:issueId/interactions', {
    schema: {
      tags,
      summary: 'Post an interaction (201); repeating an idempotencyKey returns the existing one (200) and changes nothing',
      params: IssueIdParams,
      body: CreateInteractionBody,
      response: { 200: Interaction, 201: Interaction, ...errorResponses },
    },
    handler: (req, reply) => {
      const { interaction, created } = s.issueInteractions.create(req.actor, req.params.issueId, req.body);
      reply.code(created ? 201 : 200).send(interaction);
    },
  });

  app.post('/api/issues/:issueId/interactions/:interactionId/accept', {
    schema: {
      tags,
      summary: 'Accept a request_confirmation or suggest_tasks (board); suggest_tasks creates the selected child issues',
      params: InteractionParams,
      body: AcceptInteractionBody,
      response: resolved,
    },
    handler: (req) => s.issueInteractions.accept(req.actor, req.params.issueId, req.params.interactionId, req.body),
  });

  app.post('/api/issues/:issueId/interactions/:interactionId/reject', {
    schema: { tags, summary: 'Reject a request_confirmation or suggest_tasks (board); never wakes anyone', params: InteractionParams, body: RejectInteractionBody, response: resolved },
    handler: (req) => s.issueInteractions.reject(req.actor, req.params.issueId, req.params.interactionId, req.body),
  });

  app.post('/api/issues/:issueId/interactions/:interactionId/respond', {
    schema: { tags, summary: 'Answer an ask_user_questions (board)', params: InteractionParams, body: RespondInteractionBody, response: resolved },
    handler: (req) => s.issueInteractions.respond(req.actor, req.params.issueId, req.params.interactionId, req.body.answers),
  });
};
