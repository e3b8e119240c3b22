import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany, startCore, type TestCore } from '../helpers/core.js';
import { listOperations, requestArb, type FuzzContext, type FuzzRequest, type Operation } from './generators.js';

/**
 * Property-based fuzzing of every operation in GET /api/openapi.json. For each request:
 * never 5xx; every 4xx is exactly the error contract as JSON; the seeded secret's value never
 * shows in a body or header; a rejected request (>= 400) changes nothing in the database.
 *
 * Short run by default (about 540 requests in all). Long run: `node bench/fuzz-long.mjs`, which
 * sets FUZZ_RUNS (requests in all, spread over the operations) and FUZZ_SEED.
 */
const TOTAL_RUNS = Number(process.env.FUZZ_RUNS ?? 540);
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const SECRET_VALUE = 'fuzz-secret-value-123456';
const ERROR_CODE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/** Never called by the fuzzer; each gets one short check below instead. */
const SKIPPED = new Set([
  'GET /api/companies/{companyId}/events', // SSE: the stream never ends
  'POST /api/agents/{agentId}/heartbeat/invoke', // starts agent processes
  'POST /api/adapters', // runs npm install: random package names would be fetched from the registry
  'POST /api/demo', // creates a company whose agents run for minutes and write from their processes
]);


// The heartbeat engine, the CRM sequence scheduler and the routine scheduler are off: their ticks turn what successful fuzz
// requests left behind (an issue assigned to the agent, an @mention, a sequence enrollment) into
// writes from a timer, which would race with the before/after snapshots around a rejected request.
// The request paths are the same either way.
async function setup(): Promise<{ t: TestCore; ctx: FuzzContext; operations: Operation[] }> {
  const t = await startCore({ heartbeats: false, sequences: false, routines: false });
  const companyId = await createCompany(t, 'Fuzz Co');
  const agent = await createAgent(t, companyId);
  const agentKey = await createAgentKey(t, agent.id);
  const keys = await t.api('GET', `/api/agents/${agent.id}/keys`);
  const seed = async (path: string, body: unknown) => {
    const res = await t.api('POST', path, { body });
    if (res.status !== 201) throw new Error(`seed ${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const project = await seed(`/api/companies/${companyId}/projects`, { name: 'Fuzz project' });
  const goal = await seed(`/api/companies/${companyId}/goals`, { title: 'Fuzz goal' });
  const issue = await seed(`/api/companies/${companyId}/issues`, { title: 'Fuzz issue', projectId: project.id });
  const secret = await seed(`/api/companies/${companyId}/secrets`, { name: 'FUZZ_SECRET', value: SECRET_VALUE });
  const doc = (await t.api('GET', '/api/openapi.json')).body;
  const ctx: FuzzContext = {
    ids: {
      companyId,
      agentId: agent.id,
      keyId: keys.body[0]?.id ?? agent.id,
      projectId: project.id,
      goalId: goal.id,
      issueId: issue.id,
      secretId: secret.id,
      key: 'plan',
    },
    boardToken: t.boardToken,
    agentKey,
    doc,
  };
  return { t, ctx, operations: listOperations(doc) };
}

// Top-level await: the tests are named after the operations of the served document.
const { t, ctx, operations } = await setup();

afterAll(async () => {
  await t.close();
});

async function send(r: FuzzRequest) {
  const res = await fetch(t.url + r.url, { method: r.method, headers: r.headers, body: r.body as RequestInit['body'] });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** Checks the properties on one request; throws (so fast-check shrinks) when one fails. */
async function check(r: FuzzRequest): Promise<number> {
  const before = t.snapshot();
  const res = await send(r);
  const where = `${r.method} ${r.url} -> ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, where).toBeLessThan(500);
  expect(res.text.includes(SECRET_VALUE), `secret in body: ${where}`).toBe(false);
  for (const [name, value] of res.headers) expect(value.includes(SECRET_VALUE), `secret in header ${name}: ${where}`).toBe(false);
  if (res.status >= 400) {
    expect(res.headers.get('content-type') ?? '', where).toMatch(/^application\/json/);
    const body = JSON.parse(res.text);
    expect(typeof body === 'object' && body !== null && !Array.isArray(body), where).toBe(true);
    expect(Object.keys(body).filter((k) => !['error', 'code', 'details'].includes(k)), where).toEqual([]);
    expect(typeof body.error, where).toBe('string');
    expect(body.code, where).toMatch(ERROR_CODE);
    const after = t.snapshot();
    if (body.details?.limit !== undefined) {
      // A refusal by a limit records one `limit.exceeded` activity entry for the board, nothing else.
      const strip = ({ activity, __total_changes: _c, ...rest }: Record<string, number>) => ({ rest, activity: activity ?? 0 });
      expect(strip(after).rest, `rejected request wrote to the database: ${where}`).toEqual(strip(before).rest);
      expect(strip(after).activity - strip(before).activity, where).toBeLessThanOrEqual(1);
    } else {
      expect(after, `rejected request wrote to the database: ${where}`).toEqual(before);
    }
  }
  return res.status;
}

describe('fuzzing every route of the OpenAPI document', () => {
  it('enumerates the document', () => {
    expect(operations.length).toBeGreaterThan(50);
  });

  for (const [index, op] of operations.entries()) {
    const name = `${op.method} ${op.path}`;
    // Streams and process starts are not fuzzed; the test below checks their rejections instead.
    if (SKIPPED.has(name)) continue;
    const numRuns = Math.max(2, Math.ceil(TOTAL_RUNS / operations.length));
    it(name, async () => {
      await fc.assert(
        fc.asyncProperty(requestArb(op, ctx), async (r) => {
          await check(r);
        }),
        { seed: SEED + index, numRuns },
      );
    }, Math.max(30_000, numRuns * 200));
  }

  it('skipped operations still reject unauthenticated and unknown-id requests with the contract', async () => {
    const { companyId, agentId } = ctx.ids;
    const requests: FuzzRequest[] = [
      { method: 'GET', url: `/api/companies/${companyId}/events`, headers: {} },
      { method: 'GET', url: `/api/companies/00000000-0000-4000-8000-000000000000/events`, headers: { authorization: 'Bearer hck_garbage' } },
      { method: 'POST', url: `/api/agents/${agentId}/heartbeat/invoke`, headers: { 'content-type': 'application/json' }, body: '{}' },
      { method: 'POST', url: `/api/agents/${agentId}/heartbeat/invoke`, headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.boardToken}` }, body: '{"nope":' },
      { method: 'POST', url: `/api/agents/not-an-id/heartbeat/invoke`, headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.boardToken}` }, body: '{}' },
      { method: 'POST', url: '/api/adapters', headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.agentKey}` }, body: '{"packageName":"left-pad"}' },
      { method: 'POST', url: '/api/adapters', headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.boardToken}` }, body: '{"packageName":"left-pad","localPath":"/tmp"}' },
      { method: 'POST', url: '/api/demo', headers: { 'content-type': 'application/json' }, body: '{}' },
      { method: 'POST', url: '/api/demo', headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.agentKey}` }, body: '{}' },
    ];
    for (const r of requests) expect(await check(r)).toBeGreaterThanOrEqual(400);
  });
});
