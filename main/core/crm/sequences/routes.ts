import { z } from 'zod';
import type { RouteRegistrar } from '../../kernel/route.js';
import { errorResponses } from '../../kernel/route.js';
import { CompanyIdParams, EmptyBody } from '../../kernel/common-contract.js';
import { ArrayPageQuery, ARRAY_PAGE_DESCRIPTION, sendArrayPage } from '../../kernel/header-page.js';
import { CreateSequenceBody, EnrollBody, Enrollment, EnrollmentIdParams, EnrollResult, ListEnrollmentsQuery, PatchSequenceBody, Sequence, SequenceIdParams } from './contract.js';

const tags = ['crm'];

/** Sequence routes (our addition to spec 4.8, which names the scheduler but no routes for it). */
export const crmSequencesRoutes: RouteRegistrar = (app, s) => {
  const base = '/api/companies/:companyId/crm/sequences';

  app.get(base, {
    schema: { tags, summary: 'Live sequences of the company, oldest first, one page at a time', description: ARRAY_PAGE_DESCRIPTION, params: CompanyIdParams, querystring: z.strictObject(ArrayPageQuery), response: { 200: z.array(Sequence), ...errorResponses } },
    handler: async (req, reply) => sendArrayPage(req, reply, req.query.limit, s.crmSequences.list(req.actor, req.params.companyId, req.query)),
  });

  app.post(base, {
    schema: {
      tags,
      summary: 'Create a sequence: an outbox, steps (delay, kind, payload or content piece) and a send window; steps are validated against the channel now',
      params: CompanyIdParams,
      body: CreateSequenceBody,
      response: { 201: Sequence, ...errorResponses },
    },
    handler: (req, reply) => {
      reply.code(201).send(s.crmSequences.create(req.actor, req.params.companyId, req.body));
    },
  });

  app.get(`${base}/:sequenceId`, {
    schema: { tags, summary: 'One sequence', params: SequenceIdParams, response: { 200: Sequence, ...errorResponses } },
    handler: (req) => s.crmSequences.get(req.actor, req.params.companyId, req.params.sequenceId),
  });

  app.patch(`${base}/:sequenceId`, {
    schema: { tags, summary: 'Rename, change steps or window, pause or resume a sequence', params: SequenceIdParams, body: PatchSequenceBody, response: { 200: Sequence, ...errorResponses } },
    handler: (req) => s.crmSequences.patch(req.actor, req.params.companyId, req.params.sequenceId, req.body),
  });

  app.delete(`${base}/:sequenceId`, {
    schema: { tags, summary: 'Soft-delete a sequence; its live enrollments stop', params: SequenceIdParams, response: { 204: z.null(), ...errorResponses } },
    handler: async (req, reply) => {
      s.crmSequences.remove(req.actor, req.params.companyId, req.params.sequenceId);
      return reply.code(204).send(null);
    },
  });

  app.get(`${base}/:sequenceId/enrollments`, {
    schema: {
      tags,
      summary: 'Enrollments of a sequence, newest first (one enroll call in its order), one page at a time',
      description: ARRAY_PAGE_DESCRIPTION,
      params: SequenceIdParams,
      // The limit keeps its default of 50 (at most 200) from before the list paged: a first page is unchanged.
      querystring: ListEnrollmentsQuery.extend({ after: ArrayPageQuery.after }),
      response: { 200: z.array(Enrollment), ...errorResponses },
    },
    handler: async (req, reply) => sendArrayPage(req, reply, req.query.limit, s.crmSequences.listEnrollments(req.actor, req.params.companyId, req.params.sequenceId, req.query, req.query)),
  });

  app.post(`${base}/:sequenceId/enrollments`, {
    schema: {
      tags,
      summary: 'Enroll contacts (201); a contact already live in the sequence is skipped and reported',
      params: SequenceIdParams,
      body: EnrollBody,
      response: { 201: EnrollResult, ...errorResponses },
    },
    handler: (req, reply) => {
      reply.code(201).send(s.crmSequences.enroll(req.actor, req.params.companyId, req.params.sequenceId, req.body));
    },
  });

  app.get('/api/companies/:companyId/crm/enrollments/:enrollmentId', {
    schema: { tags, summary: 'One enrollment: its step, next due time and last outcome', params: EnrollmentIdParams, response: { 200: Enrollment, ...errorResponses } },
    handler: (req) => s.crmSequences.getEnrollment(req.actor, req.params.companyId, req.params.enrollmentId),
  });

  app.post('/api/companies/:companyId/crm/enrollments/:enrollmentId/stop', {
    schema: { tags, summary: 'Stop a live enrollment: no further step is sent', params: EnrollmentIdParams, body: EmptyBody, response: { 200: Enrollment, ...errorResponses } },
    handler: (req) => s.crmSequences.stopEnrollment(req.actor, req.params.companyId, req.params.enrollmentId),
  });
};
