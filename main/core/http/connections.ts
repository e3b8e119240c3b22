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
