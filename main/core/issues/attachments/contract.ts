import { z } from 'zod';
import { Id, Timestamp } from '../../kernel/common-contract.js';
import { IssueRef } from '../params.js';

/** The multipart field that carries the file (spec 4.7 rule 6 leaves it open). */
export const ATTACHMENT_FIELD = 'file';

export const Attachment = z
  .object({
    id: Id,
    companyId: Id,
    issueId: Id,
    fileName: z.string().describe('The client file name, sanitised: no directories, control or quote characters'),
    contentType: z.string().describe('Verified against the bytes at upload'),
    byteSize: z.int(),
    sha256: z.string().describe('Hex SHA-256 of the bytes'),
    createdAt: Timestamp,
    createdByType: z.enum(['board', 'agent']),
    createdById: Id.nullable().describe('The uploading agent; null for the board'),
    contentUrl: z.string().describe('GET it with the bearer token'),
  })
  .meta({ id: 'Attachment' });
export type Attachment = z.infer<typeof Attachment>;

export const UploadAttachmentParams = z.strictObject({ companyId: Id, issueId: IssueRef });
export const AttachmentIdParams = z.strictObject({ attachmentId: Id });
