import { z } from 'zod';
import { Id, Timestamp, TitleText } from '../kernel/common-contract.js';
import { CrmChannel, Niche, Tags } from './contract-config.js';
import { utf8Bytes } from './bytes.js';
import { sourcePathProblem } from './source-path.js';

/** Spec 8, in UTF-8 bytes; "KB" read as 1024 bytes. */
export const CONTENT_LIMITS = { titleBytes: 512, summaryBytes: 4 * 1024, frontmatterBytes: 64 * 1024, sourcePathBytes: 1024 } as const;

const bytesAtMost = (max: number) => (s: string) => utf8Bytes(s) <= max;

export const SourcePath = z
  .string()
  .refine(bytesAtMost(CONTENT_LIMITS.sourcePathBytes), `must be at most ${CONTENT_LIMITS.sourcePathBytes} bytes`)
  .superRefine((s, c) => {
    const problem = sourcePathProblem(s);
    if (problem) c.addIssue({ code: 'custom', message: problem });
  })
  .describe('Relative path of the source file: no .., no absolute or drive paths, no backslashes, no encoded traversal');
export const Sha256Hex = z
  .string()
  .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters (sha256)')
  .transform((s) => s.toLowerCase());
const Title = TitleText(CONTENT_LIMITS.titleBytes).refine(bytesAtMost(CONTENT_LIMITS.titleBytes), `must be at most ${CONTENT_LIMITS.titleBytes} bytes of UTF-8`);
const Summary = z.string().refine(bytesAtMost(CONTENT_LIMITS.summaryBytes), `must be at most ${CONTENT_LIMITS.summaryBytes} bytes of UTF-8`);
const Frontmatter = z
  .record(z.string(), z.unknown())
  .refine((f) => utf8Bytes(JSON.stringify(f)) <= CONTENT_LIMITS.frontmatterBytes, `must serialize to at most ${CONTENT_LIMITS.frontmatterBytes} bytes of JSON`);

export const ContentPiece = z
  .object({
    id: Id,
    companyId: Id,
    issueId: Id.nullable(),
    title: z.string(),
    summary: z.string(),
    sourcePath: z.string(),
    sourceSha256: z.string(),
    tags: z.array(z.string()),
    channelIntent: CrmChannel.nullable(),
    niche: z.string().nullable(),
    frontmatter: z.record(z.string(), z.unknown()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    deletedAt: Timestamp.nullable(),
  })
  .meta({ id: 'CrmContentPiece' });
export type ContentPiece = z.infer<typeof ContentPiece>;

const pieceFields = {
  title: Title,
  summary: Summary.default(''),
  sourcePath: SourcePath,
  sourceSha256: Sha256Hex,
  tags: Tags.default([]),
  channelIntent: CrmChannel.nullable().default(null),
  niche: Niche.nullable().default(null),
  frontmatter: Frontmatter.default({}),
  issueId: Id.nullable().default(null).describe('An issue of the same company this piece belongs to'),
};
export const CreateContentPieceBody = z.strictObject(pieceFields);
export type CreateContentPieceInput = z.infer<typeof CreateContentPieceBody>;
export const UpdateContentPieceBody = z.strictObject({
  title: Title.optional(),
  summary: Summary.optional(),
  sourcePath: SourcePath.optional(),
  sourceSha256: Sha256Hex.optional(),
  tags: Tags.optional(),
  channelIntent: CrmChannel.nullable().optional(),
  niche: Niche.nullable().optional(),
  frontmatter: Frontmatter.optional(),
  issueId: Id.nullable().optional(),
});
export type UpdateContentPieceInput = z.infer<typeof UpdateContentPieceBody>;
export const ListContentPiecesQuery = z.strictObject({
  niche: z.string().max(100).optional(),
  channelIntent: CrmChannel.optional(),
  sourcePath: z.string().max(2048).optional().describe('Exact lookup by path'),
  issueId: Id.optional(),
});
export type ListContentPiecesQuery = z.infer<typeof ListContentPiecesQuery>;
export const ContentPieceIdParams = z.strictObject({ companyId: Id, pieceId: Id });
