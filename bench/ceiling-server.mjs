// The ceiling of issue 17: what this machine does with the same Fastify and better-sqlite3 and
// nothing else. Run as a child process by bench/ceiling.mjs on the Headcount database file.
// Usage: node bench/ceiling-server.mjs <database file>   (prints "listening on <url>")
import Fastify from 'fastify';
import Database from 'better-sqlite3';
import { createHash, randomFillSync, randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { checkoutStatements } from './checkout-statements.mjs';

const db = new Database(process.argv[2]);
// The same settings as Headcount's connection (main/core/db/connection.ts).
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 5000');
db.pragma('foreign_keys = ON');
db.pragma('cache_size = -65536');
db.pragma('temp_store = MEMORY');
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

// Checkout and release by the spec's rules and nothing else: the floor any server keeping those
// rules pays on this machine (issue 17), next to the raw claim/release loop. The statements are the
// server's, as bench/checkout-floor.mjs runs them in SQLite alone; around them only what a request
// needs to be answered: the agent key verified once and then found by its hash, the run named by
// X-Service-Run-Id checked (an active run of this agent), and group commit as the server's at best
// (main/core/context.ts: each write in a savepoint, one COMMIT a turn, every answer after it). No
// validation schema, error contract, events, wakes or logging.
const keyByHash = db.prepare('SELECT k.agent_id AS agentId, a.name, a.status FROM agent_api_keys k JOIN agents a ON a.id = k.agent_id WHERE k.key_hash = ? AND k.revoked_at IS NULL');
const { runAgent, lock, issue, agentRow, blockers, claim, release, entry } = checkoutStatements(db);
// UUIDv7 activity ids from a pool of random bytes, as the server makes them (kernel/ids.ts).
const pool = new Uint8Array(16 * 256);
let offset = pool.length;
let seq = 0;
function newId() {
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  offset += 16;
  return uuidv7({ random: pool.subarray(offset - 16, offset), msecs: Date.now(), seq: seq++ & 0x7fffffff });
}
const verified = new Map();
function agentOf(req) {
  const hash = createHash('sha256').update(String(req.headers.authorization).slice(7)).digest('hex');
  let agent = verified.get(hash);
  if (!agent) verified.set(hash, (agent = keyByHash.get(hash)));
  const run = req.headers['x-service-run-id'];
  const active = run && runAgent.get(run);
  if (!agent || !active || active.agent_id !== agent.agentId || active.status !== 'running') return null;
  return { ...agent, run };
}
const [begin, commit, savepoint, releaseSavepoint] = ['BEGIN IMMEDIATE', 'COMMIT', 'SAVEPOINT w', 'RELEASE w'].map((q) => db.prepare(q));
let waiting = null;
// Runs `fn` in its own savepoint of the turn's transaction; answers once that transaction commits.
function grouped(reply, fn) {
  if (!waiting) {
    begin.run();
    waiting = [];
    setImmediate(() => {
      const answers = waiting;
      waiting = null;
      commit.run();
      for (const [r, status, body] of answers) r.code(status).header('content-type', 'application/json; charset=utf-8').send(body);
    });
  }
  savepoint.run();
  const [status, body] = fn();
  releaseSavepoint.run();
  waiting.push([reply, status, body]);
}
// A rules route: the agent and its run checked, then `write` in the turn's group with the issue's
// lock columns read; a missing or deleted issue is a 404.
function rulesRoute(path, write) {
  app.post(path, (req, reply) => {
    const agent = agentOf(req);
    if (!agent) return reply.code(403).send({ error: 'forbidden' });
    grouped(reply, () => {
      const row = lock.get(req.params.id);
      if (!row || row.deleted_at) return [404, '{"error":"not found"}'];
      return write(agent, row, new Date().toISOString(), req);
    });
  });
}
rulesRoute('/rules/issues/:id/checkout', (agent, row, at, req) => {
  const self = agentRow.get(agent.agentId);
  if (self.company_id !== row.company_id || self.status === 'terminated') return [409, '{"error":"agent"}'];
  if (row.checkout_agent_id !== self.id && blockers.all(row.id).length > 0) return [409, '{"error":"blocked"}'];
  const claimed = claim.get({ agent: self.id, run: agent.run, at, id: row.id, expected: JSON.stringify(req.body.expectedStatuses), stale: 0 });
  if (!claimed) return [409, '{"error":"checkout_conflict"}'];
  entry.run(newId(), row.company_id, self.id, 'issue.checked_out', row.id, `${row.identifier} checked out by ${self.name} (run ${agent.run})`,
    JSON.stringify({ agentId: self.id, runId: agent.run, previousRunId: row.checkout_run_id, from: row.status }), at);
  return [200, claimed.json];
});
rulesRoute('/rules/issues/:id/release', (agent, row, at) => {
  // As the server: releasing an issue nobody holds writes nothing and answers the issue (autocannon
  // sometimes sends a connection's release again when it reconnects).
  if (!row.checkout_agent_id) return [200, issue.get(row.id).json];
  if (row.checkout_agent_id !== agent.agentId) return [403, '{"error":"not_checkout_owner"}'];
  const released = release.get({ at, id: row.id });
  entry.run(newId(), row.company_id, agent.agentId, 'issue.released', row.id, `${row.identifier} released`, JSON.stringify({ agentId: agent.agentId, runId: row.checkout_run_id }), at);
  return [200, released.json];
});

const url = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`listening on ${url}\n`);
process.on('SIGTERM', () => app.close().then(() => { db.close(); process.exit(0); }));
