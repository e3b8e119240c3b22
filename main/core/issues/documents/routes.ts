import { z } from 'zod';
import type { RouteRegistrar } from '../../kernel/route.js';
import { errorResponses } from '../../kernel/route.js';
import { ArrayPageQuery, ARRAY_PAGE_DESCRIPTION, sendArrayPage } from '../../kernel/header-page.js';
import { IssueIdParams } from '../params.js';
import { DeletedDocument, DocumentKeyParams, DocumentRevision, DocumentSummary, IssueDocument, PutDocumentBody } from './contract.js';

const tags = ['issue documents'];

export const issueDocumentsRoutes: RouteRegistrar = (app, s) => {
  app.get('/api/issues/:issueId/documents', {
    schema: { tags, summary: 'Live documents of the issue: metadata only, by key, one page at a time', description: ARRAY_PAGE_DESCRIPTION, params: IssueIdParams, querystring: z.strictObject(ArrayPageQuery), response: { 200: z.array(DocumentSummary), ...errorResponses } },
    handler: async (req, reply) => sendArrayPage(req, reply, req.query.limit, s.issueDocuments.list(req.actor, req.params.issueId, req.query)),
  });

  app.get('/api/issues/:issueId/documents/:key', {
    schema: { tags, summary: 'One document with its body', params: DocumentKeyParams, response: { 200: IssueDocument, ...errorResponses } },
    handler: (req) => s.issueDocuments.get(req.actor, req.params.issueId, req.params.key),
  });

  app.put('/api/issues/:issueId/documents/:key', {
    schema: {
      tags,
      summary: 'Create (omit baseRevisionId: 201) or update (current baseRevisionId: 200) a document; a stale base is 409 stale_revision',
      params: DocumentKeyParams,
      body: PutDocumentBody,
      response: { 200: IssueDocument, 201: IssueDocument, ...errorResponses },
    },
    handler: (req, reply) => {
      const { document, created } = s.issueDocuments.put(req.actor, req.params.issueId, req.params.key, req.body);
      reply.code(created ? 201 : 200).send(document);
    },
  });

  app.get('/api/issues/:issueId/documents/:key/revisions', {
    schema: { tags, summary: 'Revision history, newest first, one page at a time', description: ARRAY_PAGE_DESCRIPTION, params: DocumentKeyParams, querystring: z.strictObject(ArrayPageQuery), response: { 200: z.array(DocumentRevision), ...errorResponses } },
    handler: async (req, reply) => sendArrayPage(req, reply, req.query.limit, s.issueDocuments.revisions(req.actor, req.params.issueId, req.params.key, req.query)),
  });

  app.delete('/api/issues/:issueId/documents/:key', {
    schema: { tags, summary: 'Delete a document (board only); the key can then be created anew', params: DocumentKeyParams, response: { 200: DeletedDocument, ...errorResponses } },
    handler: (req) => s.issueDocuments.remove(req.actor, req.params.issueId, req.params.key),
  });
};
