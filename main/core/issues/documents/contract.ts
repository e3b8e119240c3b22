import { z } from 'zod';
import { Id, Timestamp, TitleText } from '../../kernel/common-contract.js';
import { IssueRef } from '../params.js';

/** Stable address of a document within its issue, e.g. `plan`, `design`, `notes`. */
export const DocumentKey = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,63}$/, 'must start with a-z and use only a-z, 0-9, _ and - (at most 64 characters)');

export const DocumentFormat = z.enum(['markdown', 'text']);

/** Bodies are measured in UTF-8 bytes: what is stored and sent, whatever the script. */
export const MAX_DOCUMENT_BODY_BYTES = 512 * 1024;

export const DocumentKeyParams = z.strictObject({ issueId: IssueRef, key: DocumentKey });

export const PutDocumentBody = z.strictObject({
  title: TitleText(200),
  format: DocumentFormat,
  body: z.string().describe(`At most ${MAX_DOCUMENT_BODY_BYTES} bytes in UTF-8`),
  baseRevisionId: Id.nullish().describe('Omit to create; give the current revisionId to update'),
});
export type PutDocumentInput = z.infer<typeof PutDocumentBody>;

export const DocumentSummary = z
  .object({
    key: DocumentKey,
    title: z.string(),
    format: DocumentFormat,
    revisionId: Id.describe('Current revision; send it as baseRevisionId to update'),
    revisionNumber: z.int().min(1),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    bodyBytes: z.int().min(0).describe('Size of the body in UTF-8 bytes'),
  })
  .meta({ id: 'IssueDocumentSummary' });
export type DocumentSummary = z.infer<typeof DocumentSummary>;

export const IssueDocument = DocumentSummary.extend({ id: Id, body: z.string() }).meta({ id: 'IssueDocument' });
export type IssueDocument = z.infer<typeof IssueDocument>;

export const DeletedDocument = IssueDocument.extend({ deletedAt: Timestamp }).meta({ id: 'DeletedIssueDocument' });
export type DeletedDocument = z.infer<typeof DeletedDocument>;

/** The `plan` document in full, as GET /api/issues/{id} shows it. */
export const PlanDocument = z
  .object({
    key: z.literal('plan'),
    title: z.string(),
    format: DocumentFormat,
    body: z.string(),
    revisionId: Id,
    revisionNumber: z.int().min(1),
    updatedAt: Timestamp,
  })
  .meta({ id: 'PlanDocument' });
export type PlanDocument = z.infer<typeof PlanDocument>;

export const DocumentRevision = z
  .object({
    id: Id,
    revisionNumber: z.int().min(1),
    title: z.string(),
    format: DocumentFormat,
    body: z.string(),
    authorType: z.enum(['board', 'agent', 'system']),
    authorId: Id.nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: 'IssueDocumentRevision' });
export type DocumentRevision = z.infer<typeof DocumentRevision>;
