import { afterEach, describe, expect, it } from 'vitest';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';
import type { RequestLimits } from '../../../main/core/http/request-limits.js';

// Issue #14.9: slow clients are cut off by header, request and keep-alive timeouts, and one address
// cannot hold more than its share of sockets; the live event stream is not a slow client.
let t: TestCore | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** Short limits so the test waits seconds, not the real defaults' minutes. */
const SHORT: Partial<RequestLimits> = { headersTimeoutMs: 800, requestTimeoutMs: 1_500, keepAliveTimeoutMs: 500, timeoutCheckIntervalMs: 100 };

/** A raw TCP client: what it received, and a promise that settles when the server closes it. */
function connect(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  const arrivals: (() => void)[] = [];
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    received += chunk;
    arrivals.splice(0).forEach((f) => f());
  });
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return {
    socket,
    connected,
    closed,
    received: () => received,
    /** Resolves once the received text contains `text`. */
    async waitFor(text: string) {
      while (!received.includes(text)) await new Promise<void>((r) => arrivals.push(r));
    },
  };
}

const request = (port: number, path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${extra}\r\n`;

describe('request timeouts', () => {
  it('cuts off a client that sends its headers one byte every two seconds, in the error contract', { timeout: 20_000 }, async () => {
    t = await startCore({ requestLimits: SHORT });
    const client = connect(t.core.port);
    const text = request(t.core.port, '/api/health');
    let sent = 0;
    let open = true;
    void client.closed.then(() => (open = false));
    await client.connected;
    while (open && sent < text.length) {
      client.socket.write(text[sent++]!);
      await Promise.race([sleep(2_000), client.closed]);
    }
    await client.closed;
    expect(sent).toBeLessThan(text.length);
    const [head, body] = client.received().split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(body!)).toEqual({ error: expect.any(String), code: 'request_timeout' });
  });

  it('closes a socket that never sends a byte', async () => {
    t = await startCore({ requestLimits: SHORT });
    const silent = connect(t.core.port);
    await silent.closed;
    expect(silent.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('cuts off a client whose body trickles in after its headers', { timeout: 20_000 }, async () => {
    t = await startCore({ requestLimits: SHORT });
    const client = connect(t.core.port);
    await client.connected;
    client.socket.write(`POST /api/companies HTTP/1.1\r\nHost: 127.0.0.1:${t.core.port}\r\nAuthorization: Bearer ${t.boardToken}\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{"na`);
    let open = true;
    void client.closed.then(() => (open = false));
    const rest = 'me":"Slow Co"}'.padEnd(36, ' ');
    for (let i = 0; open && i < rest.length; i++) {
      client.socket.write(rest[i]!);
      await Promise.race([sleep(2_000), client.closed]);
    }
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect((await t.api('GET', '/api/companies')).body.map((c: { name: string }) => c.name)).not.toContain('Slow Co');
  });

  it('closes an idle keep-alive socket', async () => {
    t = await startCore({ requestLimits: SHORT });
    const client = connect(t.core.port);
    client.socket.write(request(t.core.port, '/api/health'));
    await client.waitFor('"status":"ok"');
    // Waits only for the server to end the idle socket; before the limit it stayed open for 72 s.
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('keeps the event stream alive past every request timeout', { timeout: 20_000 }, async () => {
    t = await startCore({ requestLimits: SHORT });
    const companyId = await createCompany(t);
    const stream = connect(t.core.port);
    stream.socket.write(request(t.core.port, `/api/companies/${companyId}/events`, `Authorization: Bearer ${t.boardToken}\r\n`));
    await stream.waitFor('retry:');
    let open = true;
    void stream.closed.then(() => (open = false));
    // Longer than the header, request and keep-alive timeouts together.
    await sleep(3_000);
    expect(open).toBe(true);
    const issue = await t.api('POST', `/api/companies/${companyId}/issues`, { body: { title: 'Heard on a long stream' } });
    expect(issue.status).toBe(201);
    await stream.waitFor(issue.body.id);
    stream.socket.destroy();
  });
});

describe('connection cap', () => {
  it('closes sockets over the per-address cap at once, event streams included, and frees the slot on close', async () => {
    t = await startCore({ requestLimits: { maxConnectionsPerIp: 3 } });
    const companyId = await createCompany(t);
    const streams = [connect(t.core.port), connect(t.core.port)];
    for (const s of streams) s.socket.write(request(t.core.port, `/api/companies/${companyId}/events`, `Authorization: Bearer ${t.boardToken}\r\n`));
    await Promise.all(streams.map((s) => s.waitFor('retry:')));
    const idle = connect(t.core.port);
    await idle.connected;
    const excess = connect(t.core.port);
    excess.socket.write(request(t.core.port, '/api/health'));
    await excess.closed;
    expect(excess.received()).toBe('');
    // Freeing one slot lets the next client in.
    idle.socket.destroy();
    await idle.closed;
    let health: { status: number } | undefined;
    for (let attempt = 0; attempt < 50 && health?.status !== 200; attempt++) {
      health = await t.api('GET', '/api/health', { token: null, headers: { connection: 'close' } }).catch(() => undefined);
      if (health?.status !== 200) await sleep(20);
    }
    expect(health?.status).toBe(200);
    for (const s of streams) s.socket.destroy();
  });
});
