import { describe, expect, it } from 'vitest';
import net from 'node:net';
import { startCore } from '../../helpers/core.js';

describe('graceful close', () => {
  it('is not held up by a client that opened a socket and never sent a request', async () => {
    const t = await startCore();
    const socket = net.connect(t.core.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    // Times out (failing the test) if the idle socket kept the server open.
    await t.close();
    await ended;
    expect(socket.destroyed).toBe(true);
  });

  it('lets a request in flight finish before closing', async () => {
    const t = await startCore();
    // A request whose body is still arriving when close() starts.
    const socket = net.connect(t.core.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const body = JSON.stringify({ name: 'Late Inc' });
    socket.write(
      `POST /api/companies HTTP/1.1\r\nHost: 127.0.0.1:${t.core.port}\r\nAuthorization: Bearer ${t.boardToken}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    let response = '';
    socket.on('data', (d) => (response += d));
    const socketClosed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await new Promise((r) => setTimeout(r, 100));
    const closing = t.core.close();
    socket.write(body.slice(5));
    await closing;
    // The server drops the connection once the response is written, since it is closing.
    await socketClosed;
    expect(response).toMatch(/^HTTP\/1.1 201/);
    expect(response).toContain('"name":"Late Inc"');
  });
});
