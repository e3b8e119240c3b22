import { createHash } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Queryable } from '../../context.js';
import type { FieldProblem } from '../../kernel/error-contract.js';
import { channelAdapters } from '../channels/index.js';
import { crmContentPieces, type CrmChannel, type CrmContentPieceRow } from '../schema.js';
import type { SequenceStep } from './schema.js';

/**
 * The dedup key of one step of one enrollment. The dispatcher keys the activity by it, so a double
 * tick or a tick repeated after a crash finds the first attempt instead of sending again.
 */
export const stepDedupKey = (enrollmentId: string, stepIndex: number): string =>
  createHash('sha256').update(`crm-sequence-step\n${enrollmentId}\n${stepIndex}`).digest('hex');

/**
 * The payload a step sends: its own, or one built from its content piece in the channel's shape
 * (title → subject, summary → text). Calendar invitations need times, so they need a payload.
 */
export function stepPayload(step: SequenceStep, piece: Pick<CrmContentPieceRow, 'title' | 'summary'> | null, channel: CrmChannel): Record<string, unknown> | null {
  if (step.payload) return step.payload;
  if (!piece) return null;
  switch (channel) {
    case 'email':
    case 'network_a':
    case 'dry-run':
      return { subject: piece.title, text: piece.summary };
    case 'messaging_a':
    case 'social_a':
      return { text: piece.summary };
    case 'calendar':
      return null;
  }
}

export const livePiece = (db: Queryable, companyId: string, id: string): CrmContentPieceRow | undefined =>
  db
    .select()
    .from(crmContentPieces)
    .where(and(eq(crmContentPieces.id, id), eq(crmContentPieces.companyId, companyId), isNull(crmContentPieces.deletedAt)))
    .get();

/** What would make a step refused by the dispatcher, found when the sequence is saved rather than at send time. */
export function stepProblems(db: Queryable, companyId: string, channel: CrmChannel, steps: readonly SequenceStep[]): FieldProblem[] {
  const adapter = channelAdapters[channel];
  const problems: FieldProblem[] = [];
  steps.forEach((step, i) => {
    const at = `body.steps.${i}`;
    if (step.kind !== undefined && !adapter.kinds.includes(step.kind)) problems.push({ location: 'body', path: `${at}.kind`, message: `must be one of ${adapter.kinds.join(', ')} for ${channel}` });
    let piece: CrmContentPieceRow | null = null;
    if (step.contentPieceId) {
      piece = livePiece(db, companyId, step.contentPieceId) ?? null;
      if (!piece) {
        problems.push({ location: 'body', path: `${at}.contentPieceId`, message: 'must be a live content piece of this company' });
        return;
      }
    }
    const payload = stepPayload(step, piece, channel);
    if (!payload) {
      problems.push({ location: 'body', path: `${at}.payload`, message: `is required for ${channel} steps` });
      return;
    }
    const parsed = adapter.payloadSchema.safeParse(payload);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const from = step.payload ? 'payload' : 'payload (built from the content piece)';
        problems.push({ location: 'body', path: [`${at}.payload`, ...issue.path.map(String)].join('.'), message: `${from}: ${issue.message}` });
      }
    }
  });
  return problems;
}
