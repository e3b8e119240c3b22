import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany, startCore, type TestCore } from '../../helpers/core.js';

let t: TestCore;
let companyId: string;
beforeEach(async () => {
  t = await startCore();
  companyId = await createCompany(t);
});
afterEach(async () => {
  await t.close();
});

interface SseEvent {
  id: string;
  event: string;
  data: any;
}

/** Reads an SSE stream with fetch, as the renderer does (EventSource cannot send a bearer token). */
async function openStream(path: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const res = await fetch(t.url + path, { headers: { authorization: `Bearer ${t.boardToken}`, ...headers }, signal: controller.signal });
  const events: SseEvent[] = [];
  const waiters: (() => void)[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let idx;
        while ((idx = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, idx);
          buffer = buffer.slice(idx + 2);
          const fields: Record<string, string> = Object.fromEntries(
            block
              .split('\n')
              .filter((l) => l && !l.startsWith(':'))
              .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]),
          );
          if (fields.event) events.push({ id: fields.id ?? '', event: fields.event, data: JSON.parse(fields.data ?? 'null') });
          waiters.splice(0).forEach((w) => w());
        }
      }
    } catch {
      // aborted
    }
  })();
  const waitFor = async (n: number) => {
    const deadline = Date.now() + 5000;
    while (events.length < n) {
      if (Date.now() > deadline) throw new Error(`only ${events.length} events`);
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 100);
      });
    }
    return events;
  };
  return { res, events, waitFor, close: () => controller.abort() };
}

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
