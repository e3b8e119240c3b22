// Search at scale: GET /api/companies/{id}/search over 100,000 issues (titles and descriptions from
// a Zipf-like vocabulary) and 20,000 comments. Usage: node bench/search.mjs [--issues 100000] [--rounds 30]
// Rows are seeded straight into SQLite (the triggers build the FTS index as they would in use);
// every measured request goes over HTTP, one at a time, and the figure is the client's wall time.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { machine, requireBuild, startServer, stopServer, tempHome, writeResult } from './lib.mjs';

const { values } = parseArgs({ options: { issues: { type: 'string', default: '100000' }, rounds: { type: 'string', default: '30' } } });
const ISSUES = Number(values.issues);
const COMMENTS = Math.round(ISSUES / 5);
const ROUNDS = Number(values.rounds);
const TOKEN = 'hcb_bench-board-token';

requireBuild();
const info = machine();
const home = tempHome();
let server = await startServer(home, { SERVICE_BOARD_TOKEN: TOKEN });
const board = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const call = async (method, url, body) => {
  const res = await fetch(server.url + url, { method, headers: board, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
};
const company = await call('POST', '/api/companies', { name: 'Bench Search' });
await stopServer(server);

// 5,000 pseudo-words; word k is drawn with probability ~ 1/k, so a few words are in most issues.
let seed = 42;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'pa', 'do', 'gu', 'fi', 'be', 'xo', 'qui'];
const vocab = Array.from({ length: 5000 }, (_, k) => {
  let w = '';
  for (let n = k + 7; n > 0; n = Math.floor(n / 16)) w += syllables[n % 16];
  return w;
});
const H = vocab.reduce((s, _, k) => s + 1 / (k + 1), 0);
const word = () => {
  let x = rand() * H;
  for (let k = 0; k < vocab.length; k++) if ((x -= 1 / (k + 1)) <= 0) return vocab[k];
  return vocab[vocab.length - 1];
};
const text = (n) => Array.from({ length: n }, word).join(' ');

const seededAt = performance.now();
const db = new Database(path.join(home, 'service.db'));
const insertIssue = db.prepare(`INSERT INTO issues (id, company_id, number, identifier, title, description, status, priority, priority_rank,
  created_by_type, created_at, updated_at, last_activity_at) VALUES (?, ?, ?, ?, ?, ?, 'todo', 'medium', 2, 'board', ?, ?, ?)`);
const insertComment = db.prepare(`INSERT INTO issue_comments (id, company_id, issue_id, author_type, body, created_at) VALUES (?, ?, ?, 'board', ?, ?)`);
const ids = [];
db.transaction(() => {
  const at = new Date(Date.UTC(2026, 0, 1)).toISOString();
  for (let n = 1; n <= ISSUES; n++) {
    const id = randomUUID();
    ids.push(id);
    insertIssue.run(id, company.id, n, `BS-${n}`, text(6), text(40), at, at, at);
  }
  for (let n = 0; n < COMMENTS; n++) insertComment.run(randomUUID(), company.id, ids[Math.floor(rand() * ids.length)], text(25), at);
  db.prepare('UPDATE companies SET issue_counter = ?, issue_prefix = ? WHERE id = ?').run(ISSUES, 'BS', company.id);
})();
db.close();
const seedSec = (performance.now() - seededAt) / 1000;

server = await startServer(home, { SERVICE_BOARD_TOKEN: TOKEN });
const queries = [
  ['most common word (in most issues)', vocab[0]],
  ['common word', vocab[9]],
  ['rare word', vocab[3000]],
  ['two common words', `${vocab[1]} ${vocab[2]}`],
  ['prefix of 2 letters (typing)', vocab[0].slice(0, 2)],
  ['prefix, rare', vocab[3000].slice(0, 5)],
  ['no match', 'zzzzqqq'],
  ['FTS syntax as text', '"unbalanced AND ( NEAR'],
];
const results = [];
for (const [name, q] of queries) {
  const url = `/api/companies/${company.id}/search?q=${encodeURIComponent(q)}`;
  await call('GET', url); // warm the statement and page cache
  const times = [];
  let hits = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const started = performance.now();
    const body = await call('GET', url);
    times.push(performance.now() - started);
    hits = body.issues.length;
  }
  times.sort((a, b) => a - b);
  const pct = (p) => Math.round(times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] * 10) / 10;
  results.push({ name, q, hits, p50Ms: pct(50), p95Ms: pct(95), maxMs: pct(100) });
  console.log(`${name.padEnd(36)} p50 ${pct(50)} ms  p95 ${pct(95)} ms  (${hits} issues)`);
}
await stopServer(server);
rmSync(home, { recursive: true, force: true });
const file = writeResult('search', { machine: info, issues: ISSUES, comments: COMMENTS, seedSec, rounds: ROUNDS, results });
console.log(`seeded in ${seedSec.toFixed(1)} s; wrote ${file}`);
