import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { hostAllowed, normalizeHost, type AllowEntry } from './network-allowlist.js';

/**
 * The allowlisting HTTP(S) proxy of one run: `CONNECT host:port` (HTTPS and any TLS) and
 * absolute-URI `http://` requests reach the hosts the allowlist names; everything else is answered
 * 403. It listens where only the run's sandbox can reach it (a Unix socket bound into it).
 */

/** Opens the upstream connection; injectable so a test can observe what would be dialled. */
export type Dial = (port: number, host: string) => net.Socket;
const dialTcp: Dial = (port, host) => net.connect({ port, host });

const refuse = (socket: Duplex, status: string) => {
  socket.end(`HTTP/1.1 ${status}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
};

/** `host:port` of a CONNECT request, IPv6 literals in brackets; null when malformed. */
export function parseAuthority(authority: string): { host: string; port: number } | null {
  const m = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(authority);
  if (!m) return null;
  const port = Number(m[2]);
  return port >= 1 && port <= 65_535 ? { host: normalizeHost(m[1]!), port } : null;
}

const HOP_BY_HOP = ['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive', 'te', 'trailer', 'upgrade'];

export function createAllowlistProxy(entries: readonly AllowEntry[], dial: Dial = dialTcp): http.Server {
  const server = http.createServer((req, res) => {
    let url: URL | null = null;
    try {
      url = new URL(req.url ?? '');
    } catch {
      url = null;
    }
    const port = url ? Number(url.port || 80) : 0;
    if (!url || url.protocol !== 'http:' || !hostAllowed(entries, url.hostname, port)) {
      res.writeHead(403, { 'content-type': 'text/plain', connection: 'close' }).end('headcount: host not in this agent\'s networkAllowlist\n');
      return;
    }
    const headers = { ...req.headers };
    for (const h of HOP_BY_HOP) delete headers[h];
    // The upstream sees the host that was allowed, not a Host header naming another site behind it.
    headers.host = url.host;
    const host = normalizeHost(url.hostname);
    const upstream = http.request({ method: req.method, path: `${url.pathname}${url.search}`, headers, createConnection: () => dial(port, host) }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { connection: 'close' });
      res.end();
    });
    req.pipe(upstream);
  });
  server.on('connect', (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    client.on('error', () => client.destroy());
    const target = parseAuthority(req.url ?? '');
    if (!target || !hostAllowed(entries, target.host, target.port)) return refuse(client, '403 Forbidden');
    const upstream = dial(target.port, target.host);
    let open = false;
    upstream.on('error', () => (open ? client.destroy() : refuse(client, '502 Bad Gateway')));
    upstream.once('connect', () => {
      open = true;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client).pipe(upstream);
      client.on('close', () => upstream.destroy());
    });
  });
  // A plain-HTTP upgrade (websocket) through the proxy is not forwarded: refused like other methods.
  server.on('upgrade', (_req, socket: Duplex) => refuse(socket, '403 Forbidden'));
  server.on('clientError', (_err, socket: Duplex) => refuse(socket, '400 Bad Request'));
  return server;
}
