import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import type { RouteRegistrar } from '../kernel/route.js';
import { errorResponses } from '../kernel/route.js';
import { CompanyIdParams } from '../kernel/common-contract.js';
import { assertCompany } from '../companies/service.js';
import type { CompanyEvent } from './bus.js';

/** Comment lines keep idle connections alive through proxies and let clients notice a dead server. */
const KEEPALIVE_MS = 15_000;

/**
 * A subscriber that stops reading must not make the server hold a run's output for it: past this
 * much unsent data the stream is cut, and the client resumes with Last-Event-ID (or is told to
 * refetch) when it reconnects.
 */
const MAX_UNSENT_BYTES = 8 * 1024 * 1024;

function writeEvent(res: ServerResponse, e: Pick<CompanyEvent, 'id' | 'type' | 'json'>): void {
  if (res.destroyed) return;
  res.write(`id: ${e.id}\nevent: ${e.type}\ndata: ${e.json}\n\n`);
  if (res.writableLength > MAX_UNSENT_BYTES) res.destroy();
}

/**
 * `GET /api/companies/{id}/events`: Server-Sent Events with bearer auth (read it with fetch
 * streaming). `Last-Event-ID` replays what the client missed; when that cannot be honoured (the
 * server restarted, or the gap fell out of the buffer) a `stream.reset` event tells the client to
 * refetch before following.
 */
export const eventsRoutes: RouteRegistrar = (app, s) => {
  const open = new Set<ServerResponse>();
  // SSE responses never finish on their own; end them so a graceful close does not wait forever.
  app.addHook('preClose', async () => {
    for (const res of open) {
      res.end();
      // A keep-alive socket would otherwise linger after the stream ends and delay the close.
      res.socket?.destroySoon();
    }
  });

  app.get('/api/companies/:companyId/events', {
    schema: {
      tags: ['events'],
      summary: 'Live company events (text/event-stream); resume with Last-Event-ID',
      params: CompanyIdParams,
      querystring: z.strictObject({}),
      response: { 200: z.string().describe('text/event-stream'), ...errorResponses },
    },
    handler: async (req, reply) => {
      const companyId = req.params.companyId;
      assertCompany(s.ctx.db, req.actor, companyId);
      const lastId = req.headers['last-event-id'];
      const bus = s.ctx.events;
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        'x-accel-buffering': 'no',
      });
      // Subscribe before replaying so nothing published in between is lost; dedupe by id.
      const queued: CompanyEvent[] = [];
      let replaying = true;
      const unsubscribe = bus.subscribe(companyId, (e) => (replaying ? queued.push(e) : writeEvent(res, e)));
      const replay = bus.replay(companyId, typeof lastId === 'string' ? lastId : undefined);
      res.write(`retry: 2000\n\n`);
      if (replay.reset) writeEvent(res, { id: `${bus.bootId}.0`, type: 'stream.reset', json: JSON.stringify({ reason: 'events were missed; refetch state' }) });
      const sent = new Set<string>();
      for (const e of replay.events) {
        writeEvent(res, e);
        sent.add(e.id);
      }
      for (const e of queued) if (!sent.has(e.id)) writeEvent(res, e);
      replaying = false;
      open.add(res);
      const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
      const cleanup = () => {
        clearInterval(keepalive);
        unsubscribe();
        open.delete(res);
      };
      res.on('close', cleanup);
    },
  });
};
