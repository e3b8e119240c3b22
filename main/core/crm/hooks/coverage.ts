import { open, realpath } from 'node:fs/promises';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { inTransaction, isoNow, type CoreContext } from '../../context.js';
import { ServiceError } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import { recordActivity } from '../../activity/service.js';
import { issueComments, issues } from '../../issues/schema.js';
import { listContentPiecesForIssue } from '../content-pieces.js';
import { sourcePathProblem } from '../source-path.js';
import type { CrmContentPieceRow } from '../schema.js';
import { sha256Hex, type BrandVoiceService } from '../brand-voice/service.js';
import type { BrandVoiceCheckResult } from '../brand-voice/contract.js';
import { MAX_DRAFT_CHARS } from '../brand-voice/contract.js';
import { crmHookDeliveries } from './schema.js';

/** Bytes read per source at most: anything longer could not be checked anyway (MAX_DRAFT_CHARS). */
const MAX_SOURCE_BYTES = MAX_DRAFT_CHARS * 4;

export type PieceCoverage =
  | { piece: CrmContentPieceRow; outcome: 'checked'; check: BrandVoiceCheckResult }
  | { piece: CrmContentPieceRow; outcome: 'unchecked'; reason: string; detail: string };

type Source = { ok: true; bytes: Buffer } | { ok: false; reason: string; detail: string };

/**
 * Reads a piece's source under the content root. The path rule of the API is applied again, then
 * the real path (symlinks resolved) must still lie inside the real root: a link pointing out of the
 * root is refused, not followed.
 */
export async function readSourceUnderRoot(realRoot: string, sourcePath: string): Promise<Source> {
  const problem = sourcePathProblem(sourcePath);
  if (problem) return { ok: false, reason: 'path_refused', detail: `sourcePath ${problem}` };
  let real: string;
  try {
    real = await realpath(path.join(realRoot, ...sourcePath.split('/')));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, reason: code === 'ENOENT' ? 'source_missing' : 'source_unreadable', detail: code === 'ENOENT' ? 'no such file under the content root' : `cannot be resolved (${code})` };
  }
  const rel = path.relative(realRoot, real);
  if (rel === '' || rel.startsWith(`..${path.sep}`) || rel === '..' || path.isAbsolute(rel)) {
    return { ok: false, reason: 'outside_content_root', detail: 'resolves (through a symbolic link) outside the content root; not read' };
  }
  const handle = await open(real, 'r').catch((err: NodeJS.ErrnoException) => err);
  if (!('read' in handle)) return { ok: false, reason: 'source_unreadable', detail: `cannot be opened (${handle.code})` };
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return { ok: false, reason: 'source_unreadable', detail: 'is not a regular file' };
    if (stat.size > MAX_SOURCE_BYTES) return { ok: false, reason: 'source_too_large', detail: `is ${stat.size} bytes, over ${MAX_SOURCE_BYTES}` };
    return { ok: true, bytes: await handle.readFile() };
  } finally {
    await handle.close();
  }
}

async function coverPiece(brandVoice: BrandVoiceService, realRoot: string | null, piece: CrmContentPieceRow): Promise<PieceCoverage> {
  if (!realRoot) return { piece, outcome: 'unchecked', reason: 'content_root_unavailable', detail: 'the hook’s contentRoot does not exist' };
  const source = await readSourceUnderRoot(realRoot, piece.sourcePath);
  if (!source.ok) return { piece, outcome: 'unchecked', reason: source.reason, detail: source.detail };
  const actual = sha256Hex(source.bytes);
  if (actual !== piece.sourceSha256.toLowerCase()) {
    return { piece, outcome: 'unchecked', reason: 'sha256_mismatch', detail: `source changed since it was registered (sha256 ${actual.slice(0, 12)}…, expected ${piece.sourceSha256.slice(0, 12)}…)` };
  }
  try {
    return { piece, outcome: 'checked', check: await brandVoice.checkContent('system', piece.companyId, actual, source.bytes.toString('utf8')) };
  } catch (err) {
    if (err instanceof ServiceError) return { piece, outcome: 'unchecked', reason: err.code, detail: err.message };
    throw err;
  }
}

const cell = (s: string) => s.replaceAll('|', '\\|').replaceAll('\n', ' ');

export function coverageComment(hookId: string, results: readonly PieceCoverage[]): { body: string; counts: Record<string, number> } {
  const checked = results.filter((r) => r.outcome === 'checked');
  const passed = checked.filter((r) => r.check.verdict === 'pass');
  const counts = { pieces: results.length, checked: checked.length, passed: passed.length, notPassed: checked.length - passed.length, unchecked: results.length - checked.length };
  const lines = [
    `**Brand-voice coverage** (post-issue hook \`${hookId}\`): ${counts.checked} of ${counts.pieces} content piece(s) checked, ${counts.passed} passed.`,
    '',
    '| content piece | source | result |',
    '|---|---|---|',
    ...results.map((r) => `| ${cell(r.piece.title)} | \`${cell(r.piece.sourcePath)}\` | ${r.outcome === 'checked' ? `${r.check.verdict} (${r.check.score}/100)` : `not checked: ${r.reason}`} |`),
  ];
  const notPassed = checked.filter((r) => r.check.verdict !== 'pass');
  if (notPassed.length) {
    lines.push('', 'Did not pass:');
    for (const r of notPassed) lines.push(`- **${r.piece.title}** (\`${r.piece.sourcePath}\`): ${r.check.verdict}, ${r.check.score}/100. ${r.check.summary}`);
  }
  const unchecked = results.filter((r) => r.outcome === 'unchecked');
  if (unchecked.length) {
    lines.push('', 'Not checked:');
    for (const r of unchecked) lines.push(`- **${r.piece.title}** (\`${r.piece.sourcePath}\`): ${r.detail}`);
  }
  return { body: lines.join('\n'), counts };
}

export type CoverageRun = 'commented' | 'already_commented' | 'no_pieces';

const delivered = (db: CoreContext['db'], hookId: string, issueId: string) =>
  db.select({ id: crmHookDeliveries.id }).from(crmHookDeliveries).where(and(eq(crmHookDeliveries.hookId, hookId), eq(crmHookDeliveries.issueId, issueId))).get() !== undefined;

/**
 * The brand-voice-coverage hook for one issue that reached `done`: checks every linked content
 * piece (cache hits make no model call) and comments the coverage once. The delivery row and the
 * comment commit together, so a crash between them cannot lead to a second comment or none.
 */
export async function runBrandVoiceCoverage(
  ctx: CoreContext,
  brandVoice: BrandVoiceService,
  hook: { id: string; config: { contentRoot: string } },
  issue: { id: string; companyId: string },
): Promise<CoverageRun> {
  if (delivered(ctx.db, hook.id, issue.id)) return 'already_commented';
  const pieces = listContentPiecesForIssue(ctx.db, issue.companyId, issue.id);
  if (pieces.length === 0) return 'no_pieces';
  const realRoot = await realpath(hook.config.contentRoot).catch(() => null);
  const results: PieceCoverage[] = [];
  for (const piece of pieces) results.push(await coverPiece(brandVoice, realRoot, piece));
  const { body, counts } = coverageComment(hook.id, results);
  return inTransaction(ctx, (tx) => {
    if (delivered(tx, hook.id, issue.id)) return 'already_commented';
    const row = tx.select().from(issues).where(eq(issues.id, issue.id)).get();
    if (!row) return 'no_pieces';
    const at = isoNow(ctx);
    const commentId = newId();
    // Written here rather than through insertComment: the author is the system (not the board,
    // whose comments supersede pending confirmations), and a report wakes no one by @mention.
    tx.insert(issueComments).values({ id: commentId, companyId: row.companyId, issueId: row.id, authorType: 'system', authorAgentId: null, body, createdAt: at }).run();
    tx.update(issues).set({ lastActivityAt: at }).where(eq(issues.id, row.id)).run();
    tx.insert(crmHookDeliveries).values({ id: newId(), companyId: row.companyId, hookId: hook.id, hookType: 'brand-voice-coverage', issueId: row.id, commentId, result: counts, createdAt: at }).run();
    recordActivity(tx, at, 'system', {
      companyId: row.companyId,
      action: 'issue.commented',
      entityType: 'issue',
      entityId: row.id,
      summary: `Brand-voice coverage on ${row.identifier}: ${counts.checked}/${counts.pieces} checked, ${counts.passed} passed`,
      details: { commentId, hookId: hook.id, ...counts },
    });
    return 'commented';
  });
}
