import { describe, expect, it } from 'vitest';
import { EventStream, type LiveEvent, type StreamStatus } from '../../../renderer/src/api/event-stream.js';

/** A response whose body is the given chunks, then closes (the server dropping the connection). */
function sseResponse(chunks: string[]): Response {
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (const chunk of chunks) c.enqueue(new TextEncoder().encode(chunk));
      c.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

interface Call {
  path: string;
  lastEventId: string | undefined;
}

function harness(responses: (() => Response | Promise<Response>)[]) {
  const calls: Call[] = [];
  const events: LiveEvent[] = [];
  const statuses: StreamStatus[] = [];
  const sleeps: number[] = [];
  let resets = 0;
  let done!: () => void;
  const finished = new Promise<void>((r) => (done = r));
  const stream = new EventStream({
    companyId: 'c1',
    client: {
      raw: async (path: string, init?: RequestInit) => {
        const headers = (init?.headers ?? {}) as Record<string, string>;
        calls.push({ path, lastEventId: headers['last-event-id'] });
        const next = responses.shift();
        if (!next) {
          done();
          return new Promise<Response>(() => {});
        }
        return next();
      },
    },
    onEvent: (e) => events.push(e),
    onReset: () => resets++,
    onStatus: (s) => statuses.push(s),
    backoffMs: [10, 20, 40],
    sleep: async (ms) => void sleeps.push(ms),
  });
  return { stream, calls, events, statuses, sleeps, finished, resets: () => resets };
}

describe('EventStream', () => {
  it('resumes with Last-Event-ID after a drop and parses event data', async () => {
    const h = harness([
      () => sseResponse(['id: b.1\nevent: issue.created\ndata: {"entityId":"i1"}\n\n', 'id: b.2\nevent: run.log\ndata: {"runId":"r"}\n\n']),
      () => sseResponse(['id: b.3\nevent: agent.updated\ndata: {}\n\n']),
    ]);
    h.stream.start();
    await h.finished;
    h.stream.stop();
    expect(h.calls.map((c) => c.path)).toEqual(['/api/companies/c1/events', '/api/companies/c1/events', '/api/companies/c1/events']);
    expect(h.calls.map((c) => c.lastEventId)).toEqual([undefined, 'b.2', 'b.3']);
    expect(h.events.map((e) => [e.type, e.data])).toEqual([
      ['issue.created', { entityId: 'i1' }],
      ['run.log', { runId: 'r' }],
      ['agent.updated', {}],
    ]);
    expect(h.statuses).toContain('live');
  });

  it('backs off between failed attempts and starts over once connected', async () => {
    const h = harness([
      () => Promise.reject(new TypeError('network down')),
      () => new Response('{"error":"boom","code":"internal"}', { status: 500 }),
      () => sseResponse([]),
      () => Promise.reject(new TypeError('network down')),
    ]);
    h.stream.start();
    await h.finished;
    h.stream.stop();
    // two failures (10, 20), a good connection resets the backoff, which then ends (10), fails again (20)
    expect(h.sleeps).toEqual([10, 20, 10, 20]);
  });

  it('hands stream.reset to onReset (refetch everything) and does not pass it on as an event', async () => {
    const h = harness([() => sseResponse(['id: b.0\nevent: stream.reset\ndata: {"reason":"missed"}\n\n', 'id: b.5\nevent: cost.recorded\ndata: {}\n\n'])]);
    h.stream.start();
    await h.finished;
    h.stream.stop();
    expect(h.resets()).toBe(1);
    expect(h.events.map((e) => e.type)).toEqual(['cost.recorded']);
  });

  it('stops for good when the token is refused', async () => {
    const h = harness([() => new Response('{"error":"This token is not valid","code":"unauthorized"}', { status: 401 })]);
    h.stream.start();
    await new Promise((r) => setTimeout(r, 20));
    expect(h.calls).toHaveLength(1);
    expect(h.statuses.at(-1)).toBe('unauthorized');
  });
});
