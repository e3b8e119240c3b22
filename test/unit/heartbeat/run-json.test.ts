import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../main/core/db/connection.js';
import { migratedDatabase, type MigratedDatabase } from '../../helpers/migrated-db.js';
import { insertRow } from '../../helpers/rows.js';
import { heartbeatRuns } from '../../../main/core/heartbeat/schema.js';
import { RUN_JSON, toRun } from '../../../main/core/heartbeat/runs-service.js';
import { HeartbeatRun } from '../../../main/core/heartbeat/contract.js';

// The runs list has SQLite write each run as JSON (RUN_JSON); a single run is shaped by `toRun`.
// Every run here, with every kind of value a column can hold, must come out the same both ways.

let db: MigratedDatabase;
let h: DatabaseHandle;
const AT = '2030-01-01T00:00:00.000Z';
// The schema checks ids are UUIDs; the names below say which run is which.
const C1 = randomUUID();
const A1 = randomUUID();
const I1 = randomUUID();
const W1 = randomUUID();
const ids = new Map<string, string>();
const idOf = (name: string) => ids.get(name) ?? (ids.set(name, randomUUID()), ids.get(name)!);

const runs: Record<string, unknown>[] = [
  { id: 'r-plain', status: 'queued', reasons: '[]' },
  {
    id: 'r-full',
    status: 'succeeded',
    reasons: JSON.stringify([{ reason: 'assigned "now" ☃', wakeRequestId: W1, issueId: null }, { reason: 'timer', wakeRequestId: null, issueId: I1 }]),
    task_issue_id: I1,
    command: 'claude -p "say \\"hi\\"" --key ***\ttab\nline',
    pid: 4242,
    processes: JSON.stringify([{ pid: 4242, startTime: null }]),
    exit_code: 0,
    signal: null,
    timed_out: 0,
    usage: JSON.stringify({ provider: 'anthropic', model: 'm', inputTokens: 10, outputTokens: 2, costStatus: 'priced', nested: { a: [1, 2.5, null, true] } }),
    cost_micro_cents: 1_250_000,
    session_params: JSON.stringify({ sessionId: 's-1', cwd: '/tmp/ü' }),
    summary: 'Done.\u0001 control and </script>',
    transcript_bytes: 123_456_789,
    started_at: AT,
    finished_at: AT,
  },
  { id: 'r-timed', status: 'timed_out', reasons: '[]', timed_out: 1, usage: JSON.stringify({ costStatus: 'unpriced' }), cost_micro_cents: null },
  { id: 'r-reported', status: 'failed', reasons: '[]', usage: JSON.stringify({ inputTokens: 1 }), cost_micro_cents: 1, error_code: 'adapter_failed', error_message: 'x', error_hint: 'log in' },
  { id: 'r-odd-status', status: 'failed', reasons: '[]', usage: JSON.stringify({ costStatus: 7 }), cost_micro_cents: 987_654_321_012 },
  { id: 'r-whole-cents', status: 'succeeded', reasons: '[]', usage: JSON.stringify({ costStatus: 'reported' }), cost_micro_cents: 2_000_000 },
  { id: 'r-limit', status: 'cancelled', reasons: '[]', rate_limit_reset_at: AT, cancel_reason: 'board', transcript_purged_at: AT },
];

beforeAll(async () => {
  db = await migratedDatabase('headcount-runjson-', new Date(AT));
  h = db.h;
  insertRow(h.sqlite, 'companies', { id: C1, name: 'c1', issue_prefix: 'C', created_at: AT, updated_at: AT });
  insertRow(h.sqlite, 'agents', { id: A1, company_id: C1, name: 'a1', url_key: 'a1', created_at: AT, updated_at: AT });
  for (const run of runs) insertRow(h.sqlite, 'heartbeat_runs', { company_id: C1, agent_id: A1, trigger: 'manual', adapter_type: 'process', queued_at: AT, ...run, id: idOf(run.id as string) });
});
afterAll(() => db.close());

describe('a run written as JSON by SQLite', () => {
  it.each(runs.map((r) => [r.id as string]))('%s is what toRun answers', (name) => {
    const id = idOf(name);
    const row = h.db.select().from(heartbeatRuns).where(eq(heartbeatRuns.id, id)).get()!;
    const written = h.db.select({ json: sql<string>`${RUN_JSON}` }).from(heartbeatRuns).where(eq(heartbeatRuns.id, id)).get()!.json;
    const parsed = JSON.parse(written) as Record<string, unknown>;
    // The API's copy: toRun through the route's schema, as the compiled serializer writes it.
    const expected = JSON.parse(JSON.stringify(HeartbeatRun.parse(toRun(row)))) as Record<string, unknown>;
    expect(parsed).toStrictEqual(expected);
    // Every field the schema names, and nothing else (no internal column such as `processes`).
    expect(Object.keys(parsed).sort()).toEqual(Object.keys(HeartbeatRun.shape).sort());
  });
});
