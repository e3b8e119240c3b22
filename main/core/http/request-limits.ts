import type { Socket } from 'node:net';

/**
 * How long a client may take to send a request, and how many sockets one address may hold open.
 * Without them a client sending its headers one byte every two seconds held a connection forever
 * (issue #14.9). The live event stream is not affected by the request timeouts: they cover
 * receiving the request, and its request is complete once its headers are in.
 */
export interface RequestLimits {
  /** All request headers must arrive within this (Node's `headersTimeout`). */
  headersTimeoutMs: number;
  /** The whole request, headers and body, must arrive within this (Node's `requestTimeout`). */
  requestTimeoutMs: number;
  /** An idle keep-alive socket is closed after this. */
  keepAliveTimeoutMs: number;
  /** Open sockets per client address; more are closed at once. Every client is local, so this is the total. */
  maxConnectionsPerIp: number;
  /** How often Node checks the two request timeouts (its default, 30 s, would let a slow client stay that much longer). */
  timeoutCheckIntervalMs: number;
}

export const DEFAULT_REQUEST_LIMITS: RequestLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
  // Well above what a company of agents holds at once (hundreds of concurrent CLI calls), well below
  // the usual 1,024 open files a process may have.
  maxConnectionsPerIp: 512,
  timeoutCheckIntervalMs: 1_000,
};

const CLIENT_ERRORS: Record<string, { status: number; reason: string; code: string; error: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, reason: 'Request Timeout', code: 'request_timeout', error: 'The request did not arrive in time' },
  HPE_HEADER_OVERFLOW: { status: 431, reason: 'Request Header Fields Too Large', code: 'headers_too_large', error: 'The request headers are too large' },
};

/**
 * Errors Node raises before a request exists (a timed-out or unparsable request), answered in the
 * error contract like every other 4xx, then the socket is closed.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const known = (err.code && CLIENT_ERRORS[err.code]) || { status: 400, reason: 'Bad Request', code: 'bad_request', error: 'The request is not valid HTTP' };
  const body = JSON.stringify({ error: known.error, code: known.code });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${known.status} ${known.reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
