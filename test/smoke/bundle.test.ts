import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnServe, stopProcess, type ServeProcess } from '../api/durability/serve-process.js';

// The CLI runs from an esbuild bundle (bin/build-cli-bundle.mjs). Code that leaves the bundle's
// scope, such as the checkpointer's worker thread, must work from it too: a bundler rewrites
// `require` into a helper the thread does not have.
let served: ServeProcess | undefined;
const home = mkdtempSync(path.join(os.tmpdir(), 'headcount-bundle-'));
afterAll(async () => {
  await stopProcess(served);
  rmSync(home, { recursive: true, force: true });
});

/** Companies in the database file itself, its WAL ignored: what checkpoints have copied back. */
function companiesInFile(): number {
  const copy = path.join(home, 'file-only.db');
  copyFileSync(path.join(home, 'service.db'), copy);
  const db = new Database(copy, { readonly: true });
  try {
    // Until a first checkpoint, even the tables the migrations made live only in the WAL.
    if (!db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'companies'").get()) return 0;
    return (db.prepare("SELECT count(*) AS n FROM companies WHERE name LIKE 'Bundle %'").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('the bundled CLI', () => {
  it('serves, and its background checkpointer folds commits back into the database file', async () => {
    served = await spawnServe(home, { env: { SERVICE_BOARD_TOKEN: 'hcb_bundle-smoke' } });
    const headers = { authorization: 'Bearer hcb_bundle-smoke', 'content-type': 'application/json' };
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${served.url}/api/companies`, { method: 'POST', headers, body: JSON.stringify({ name: `Bundle ${i}` }) });
      expect(res.status).toBe(201);
    }
    // Far below SQLite's own threshold (1,000 pages): only the worker's checkpoint, 250 ms after
    // these commits, can put them in the file.
    for (let i = 0; i < 100 && companiesInFile() < 5; i++) await new Promise((r) => setTimeout(r, 50));
    expect(companiesInFile()).toBe(5);
    expect(served.stderr()).not.toMatch(/checkpointer stopped/);
  });
});
