// Export and import of a ~1 GiB legitimate company through the built server: one company with
// ~1 GiB of attachments (random base64 text, so gzip cannot shrink it much and the archive stays
// about the size of the data), exported over GET /api/companies/{id}/export into a file, then
// imported over POST /api/companies/import into a second, fresh home. Reports wall time of each
// step and the peak resident set size (VmHWM) of each server process, plus the archive size.
// Usage: node bench/import.mjs [--mib 1024]
import { randomBytes } from 'node:crypto';
import { createWriteStream, openAsBlob, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { machine, requireBuild, startServer, stopServer, tempHome, writeResult } from './lib.mjs';

const { values } = parseArgs({ options: { mib: { type: 'string', default: '1024' } } });
const totalMiB = Number(values.mib);
const FILE_MIB = 10; // the per-upload limit
const token = 'hcb_bench-board-token';
const env = { SERVICE_BOARD_TOKEN: token };
const auth = { authorization: `Bearer ${token}` };

requireBuild();
const info = machine();

/** Peak and current resident set size of a process, in MiB (Linux /proc). */
function rss(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (k) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { peakMiB: Math.round(kib('VmHWM') / 1024), nowMiB: Math.round(kib('VmRSS') / 1024) };
}

async function api(server, method, url, body) {
  const res = await fetch(server.url + url, {
    method,
    headers: body instanceof FormData ? auth : { ...auth, 'content-type': 'application/json' },
    body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

const homeA = tempHome('headcount-bench-export-');
const homeB = tempHome('headcount-bench-import-');
const archive = path.join(tempHome('headcount-bench-archive-'), 'company.tar.gz');
const a = await startServer(homeA, env);
let b;
try {
  const company = await api(a, 'POST', '/api/companies', { name: 'Big Co' });
  const issue = await api(a, 'POST', `/api/companies/${company.id}/issues`, { title: 'Bulk', status: 'todo' });
  const files = Math.ceil(totalMiB / FILE_MIB);
  let seeded = performance.now();
  for (let i = 0; i < files; i++) {
    // 3 random bytes become 4 base64 characters: exactly FILE_MIB MiB of text.
    const text = randomBytes((FILE_MIB * 1024 * 1024 * 3) / 4).toString('base64');
    const form = new FormData();
    form.append('file', new Blob([text], { type: 'text/plain' }), `part-${i}.txt`);
    await api(a, 'POST', `/api/companies/${company.id}/issues/${issue.id}/attachments`, form);
  }
  seeded = performance.now() - seeded;
  const beforeExport = rss(a.child.pid);

  let t = performance.now();
  const res = await fetch(`${a.url}/api/companies/${company.id}/export`, { headers: auth });
  if (res.status !== 200) throw new Error(`export: ${res.status}`);
  await pipeline(Readable.fromWeb(res.body), createWriteStream(archive));
  const exportMs = performance.now() - t;
  const afterExport = rss(a.child.pid);
  const archiveBytes = statSync(archive).size;
  await stopServer(a);

  b = await startServer(homeB, env);
  const beforeImport = rss(b.child.pid);
  t = performance.now();
  const form = new FormData();
  form.append('file', await openAsBlob(archive, { type: 'application/gzip' }), 'company.tar.gz');
  const imported = await api(b, 'POST', '/api/companies/import', form);
  const importMs = performance.now() - t;
  const afterImport = rss(b.child.pid);
  if (imported.files.attachments !== files) throw new Error(`imported ${imported.files.attachments} of ${files} attachments`);
  const list = await api(b, 'GET', `/api/issues/${(await api(b, 'GET', `/api/companies/${imported.companyId}/issues`)).items[0].id}/attachments`);
  const importedBytes = list.reduce((n, x) => n + x.byteSize, 0);
  await stopServer(b);
  b = undefined;

  const round = (n) => Math.round(n);
  const result = {
    machine: info,
    attachments: files,
    attachmentBytes: importedBytes,
    archiveBytes,
    seedMs: round(seeded),
    export: { ms: round(exportMs), mibPerS: Math.round((importedBytes / 2 ** 20 / (exportMs / 1000)) * 10) / 10, serverRssBefore: beforeExport, serverRssAfter: afterExport },
    import: { ms: round(importMs), mibPerS: Math.round((importedBytes / 2 ** 20 / (importMs / 1000)) * 10) / 10, serverRssBefore: beforeImport, serverRssAfter: afterImport },
  };
  console.log(JSON.stringify(result, null, 2));
  console.log(`written ${writeResult('import', result)}`);
} finally {
  if (a.child.exitCode === null) a.child.kill('SIGTERM');
  if (b?.child.exitCode === null) b.child.kill('SIGTERM');
  for (const dir of [homeA, homeB, path.dirname(archive)]) rmSync(dir, { recursive: true, force: true });
}
