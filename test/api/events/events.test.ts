import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { openSse } from '../../helpers/sse.js';

let t: TestCore;
let companyId: string;
beforeEach(async () => {
  t = await startCore();
  companyId = await createCompany(t);
});
afterEach(async () => {
  await t.close();
});

/** Opens the stream as the board, with optional extra headers such as Last-Event-ID. */
const openStream = (path: string, headers: Record<string, string> = {}) => openSse(t.url + path, { authorization: `Bearer ${t.boardToken}`, ...headers });

describe('company event stream', () => {
  it('streams changes of the company as they commit', async () => {
    const stream = await openStream(`/api/companies/${companyId}/events`);
    expect(stream.res.status).toBe(200);
    expect(stream.res.headers.get('content-type')).toContain('text/event-stream');
    const project = (await t.api('POST', `/api/companies/${companyId}/projects`, { body: { name: 'P' } })).body;
    await t.api('PATCH', `/api/companies/${companyId}`, { body: { description: 'new' } });
    const events = await stream.waitFor(2);
    expect(events.map((e) => e.event)).toEqual(['project.created', 'company.updated']);
    expect(events[0]!.data).toMatchObject({ entityType: 'project', entityId: project.id, actorType: 'board' });
    stream.close();
  });

  it('does not stream other companies or failed requests', async () => {
    const other = await createCompany(t, 'Other');
    const stream = await openStream(`/api/companies/${companyId}/events`);
    await t.api('POST', `/api/companies/${other}/projects`, { body: { name: 'elsewhere' } });
    await t.api('POST', `/api/companies/${companyId}/projects`, { body: { name: '' } });
    await t.api('POST', `/api/companies/${companyId}/projects`, { body: { name: 'here' } });
    const events = await stream.waitFor(1);
    await new Promise((r) => setTimeout(r, 200));
    expect(events.map((e) => e.data.summary)).toEqual(['Project "here" created']);
    stream.close();
  });

  it('replays from Last-Event-ID and resets on an unknown id', async () => {
    const first = await openStream(`/api/companies/${companyId}/events`);
    for (const name of ['a', 'b', 'c']) await t.api('POST', `/api/companies/${companyId}/projects`, { body: { name } });
    const seen = await first.waitFor(3);
    first.close();
    await t.api('POST', `/api/companies/${companyId}/projects`, { body: { name: 'd' } });
    const resumed = await openStream(`/api/companies/${companyId}/events`, { 'last-event-id': seen[0]!.id });
    const replayed = await resumed.waitFor(3);
    expect(replayed.map((e) => e.data.summary)).toEqual(['Project "b" created', 'Project "c" created', 'Project "d" created']);
    resumed.close();
    const stale = await openStream(`/api/companies/${companyId}/events`, { 'last-event-id': 'feedface.12' });
    expect((await stale.waitFor(1))[0]!.event).toBe('stream.reset');
    stale.close();
  });

  it('applies company access to agents', async () => {
    const other = await createCompany(t, 'Other');
    const key = await createAgentKey(t, (await createAgent(t, companyId)).id);
    const res = await fetch(`${t.url}/api/companies/${other}/events`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(404);
    const unauth = await fetch(`${t.url}/api/companies/${companyId}/events`);
    expect(unauth.status).toBe(401);
  });

  it('does not hold up a graceful close', async () => {
    const stream = await openStream(`/api/companies/${companyId}/events`);
    // Hangs (and the test times out) if an open stream kept the server from closing.
    await t.core.close();
    expect(stream.res.status).toBe(200);
  });
});
