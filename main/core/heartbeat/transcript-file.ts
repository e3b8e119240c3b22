import { PathOutsideStoreError, resolveInside } from '../kernel/confined-path.js';
import { transcriptPath } from './transcript.js';

/**
 * The transcript file of a run, for reading or deleting: the run id comes from a database row, so
 * the name must resolve directly inside runs/ (no separator, no dot segment, no link leading out);
 * anything else throws PathOutsideStoreError.
 */
export function storedTranscriptPath(runsDir: string, runId: string): string {
  const file = resolveInside(runsDir, `${runId}.jsonl`);
  // The same file the writer uses: resolveInside refused every name transcriptPath would rewrite.
  if (file !== transcriptPath(runsDir, runId)) throw new Error('transcript path mismatch');
  return file;
}

/** storedTranscriptPath, or null for a run id that may not name a file (callers skip or answer 404). */
export function storedTranscriptPathOrNull(runsDir: string, runId: string): string | null {
  try {
    return storedTranscriptPath(runsDir, runId);
  } catch (err) {
    if (err instanceof PathOutsideStoreError) return null;
    throw err;
  }
}
