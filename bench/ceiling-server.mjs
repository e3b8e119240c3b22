// The ceiling of issue 17: what this machine does with the same Fastify and better-sqlite3 and
// nothing else. Run as a child process by bench/ceiling.mjs on the Headcount database file.
// Usage: node bench/ceiling-server.mjs <database file>   (prints "listening on <url>")
import Fastify from 'fastify';
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';

const db = new Database(process.argv[2]);
// The same settings as Headcount's connection (main/core/db/connection.ts).
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 5000');
db.exec('CREATE TABLE IF NOT EXISTS bench_ceiling_rows (id TEXT PRIMARY KEY, body TEXT NOT NULL, created_at TEXT NOT NULL)');
const byId = db.prepare('SELECT * FROM issues WHERE id = ?');
const page = db.prepare(
  'SELECT * FROM issues WHERE company_id = ? AND status = ? AND assignee_agent_id = ? AND deleted_at IS NULL ORDER BY priority_rank, last_activity_at DESC, id LIMIT ?',
);
const insert = db.prepare('INSERT INTO bench_ceiling_rows (id, body, created_at) VALUES (?, ?, ?) RETURNING *');

const app = Fastify({ logger: false });
// One row by id with a prepared statement, sent as JSON.
app.get('/rows/:id', async (req, reply) => {
  const row = byId.get(req.params.id);
  if (!row) return reply.code(404).send({ error: 'not found' });
  return row;
});
// The same page of issues the list scenario asks for, with a prepared statement, sent as JSON: what
// a list costs on this machine before any rule, link or contract of Headcount's.
app.get('/list', async (req) => ({ items: page.all(req.query.companyId, req.query.status, req.query.assigneeAgentId, Number(req.query.limit) + 1).slice(0, Number(req.query.limit)) }));
// One autocommit insert of the parsed JSON body. `all()` steps the statement to its end, so the
// commit happens inside the step and SQLite's automatic checkpoint (every 1,000 pages) runs as in
// any application. With `get()` the statement stops at its one RETURNING row and commits when it is
// reset, where SQLite does not run the WAL hook: the ceiling never checkpointed, its WAL grew by
// about 100 MB a second, and the Headcount server measured next paid for copying it back.
app.post('/rows', async (req, reply) => reply.code(201).send(insert.all(randomUUID(), JSON.stringify(req.body), new Date().toISOString())[0]));

const url = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`listening on ${url}\n`);
process.on('SIGTERM', () => app.close().then(() => { db.close(); process.exit(0); }));
