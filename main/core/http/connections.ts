import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Tracks in-flight requests per socket so a graceful close can drop every connection that is not
 * serving a request right away (idle keep-alives, and sockets a client opened but never used,
 * which Node's closeIdleConnections does not count as idle), let busy ones finish, and force the
 * rest after a grace period.
 */
export function trackConnections(server: Server) {
  const inFlight = new Map<Socket, number>();
  let closing = false;

  server.on('connection', (socket: Socket) => {
    inFlight.set(socket, 0);
    socket.on('close', () => inFlight.delete(socket));
  });
  server.on('request', (req, res) => {
    const socket = req.socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    res.on('close', () => {
      const left = Math.max(0, (inFlight.get(socket) ?? 1) - 1);
      inFlight.set(socket, left);
      if (closing && left === 0) socket.destroy();
    });
  });

  return {
    /** Drops idle sockets now; busy ones are dropped as their last response ends. */
    closeIdle(): void {
      closing = true;
      for (const [socket, count] of inFlight) if (count === 0) socket.destroy();
    },
    closeAll(): void {
      for (const socket of inFlight.keys()) socket.destroy();
    },
  };
}

/**
 * Closes, at once, every socket beyond `max` open from one address, before the HTTP parser sees it;
 * the event stream's sockets count like any other. `onRefused` hears each refusal.
 */
export function capConnectionsPerIp(server: Server, max: number, onRefused: (address: string, open: number) => void): void {
  const open = new Map<string, number>();
  // Prepended: a refused socket is destroyed before Node's HTTP handler attaches a parser to it.
  server.prependListener('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const count = open.get(address) ?? 0;
    if (count >= max) {
      socket.destroy();
      onRefused(address, count);
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
