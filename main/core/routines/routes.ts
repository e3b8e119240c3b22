import { z } from 'zod';
import type { RouteRegistrar } from '../kernel/route.js';
import { errorResponses } from '../kernel/route.js';
import { CompanyIdParams } from '../kernel/common-contract.js';
import { CreateRoutineBody, FiringsQuery, HookParams, PatchRoutineBody, Routine, RoutineFiring, RoutineIdParams, RoutineWithToken } from './contract.js';
import { MAX_WEBHOOK_BODY_BYTES } from './service.js';
import { ArrayPageQuery, ARRAY_PAGE_DESCRIPTION, sendArrayPage } from '../kernel/header-page.js';

const tags = ['routines'];
const AnyJson = z.unknown().describe('Any JSON; stored with the firing and usable in templates as {{body.<path>}}');

export const routinesRoutes: RouteRegistrar = (app, s) => {
  app.get('/api/companies/:companyId/routines', {
    schema: { tags, summary: 'Routines of the company (deleted ones left out), by title, one page at a time', description: ARRAY_PAGE_DESCRIPTION, params: CompanyIdParams, querystring: z.strictObject(ArrayPageQuery), response: { 200: z.array(Routine), ...errorResponses } },
    handler: async (req, reply) => sendArrayPage(req, reply, req.query.limit, s.routines.list(req.actor, req.params.companyId, req.query)),
  });
  app.post('/api/companies/:companyId/routines', {
    schema: { tags, summary: 'Create a routine; a webhook trigger answers with its token once', params: CompanyIdParams, body: CreateRoutineBody, response: { 201: RoutineWithToken, ...errorResponses } },
    handler: (req, reply) => {
      reply.code(201).send(s.routines.create(req.actor, req.params.companyId, req.body));
    },
  });
  app.get('/api/routines/:routineId', {
    schema: { tags, params: RoutineIdParams, response: { 200: Routine, ...errorResponses } },
    handler: (req) => s.routines.get(req.actor, req.params.routineId),
  });
  app.patch('/api/routines/:routineId', {
    schema: { tags, summary: 'Change a routine; enabled false pauses it', params: RoutineIdParams, body: PatchRoutineBody, response: { 200: Routine, ...errorResponses } },
    handler: (req) => s.routines.patch(req.actor, req.params.routineId, req.body),
  });
  app.delete('/api/routines/:routineId', {
    schema: { tags, summary: 'Soft-delete; history and issues stay', params: RoutineIdParams, response: { 204: z.null(), ...errorResponses } },
    handler: async (req, reply) => {
      s.routines.remove(req.actor, req.params.routineId);
      return reply.code(204).send(null);
    },
  });
  app.post('/api/routines/:routineId/webhook-token', {
    schema: { tags, summary: 'Rotate the webhook token (the old one stops at once); the new one is shown only here', params: RoutineIdParams, response: { 200: RoutineWithToken, ...errorResponses } },
    handler: (req) => s.routines.rotateToken(req.actor, req.params.routineId),
  });
  app.post('/api/routines/:routineId/fire', {
    schema: { tags, summary: 'Fire now: agents of the company fire api routines; the board fires any routine', params: RoutineIdParams, body: AnyJson.optional(), response: { 201: RoutineFiring, ...errorResponses } },
    handler: (req, reply) => {
      reply.code(201).send(s.routines.fireByApi(req.actor, req.params.routineId, req.body ?? null));
    },
  });
  app.get('/api/routines/:routineId/firings', {
    schema: { tags, summary: 'Firings, newest first: slot, trigger, outcome and issue; one page at a time', description: ARRAY_PAGE_DESCRIPTION, params: RoutineIdParams, querystring: FiringsQuery, response: { 200: z.array(RoutineFiring), ...errorResponses } },
    handler: async (req, reply) => sendArrayPage(req, reply, req.query.limit, s.routines.firings(req.actor, req.params.routineId, req.query)),
  });
  app.post('/api/routine-hooks/:token', {
    config: { public: true },
    bodyLimit: MAX_WEBHOOK_BODY_BYTES,
    schema: { tags, summary: 'Fire a webhook routine; the token in the path is the only credential (unknown token: 404)', security: [], params: HookParams, body: AnyJson.optional(), response: { 201: RoutineFiring, ...errorResponses } },
    handler: (req, reply) => {
      reply.code(201).send(s.routines.fireByHook(req.params.token, req.body ?? null));
    },
  });
};
