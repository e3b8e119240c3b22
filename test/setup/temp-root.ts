// Vitest global setup: every temporary directory the tests make (data homes, repositories,
// transcripts, fake CLIs' logs) goes under one root for the run, removed when the run ends. Many
// tests leave theirs behind on purpose (a server killed mid-write, a home read after a restart),
// and a run left some 300 directories in /tmp before this. The forks inherit TMPDIR, and
// os.tmpdir() reads it on every call.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(path.join(os.tmpdir(), 'headcount-tests-'));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = root;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    // A process a test started may still be writing here as the run ends: try a few times.
    rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  };
}
