import { z } from 'zod';
import { setupDemo } from '../../demo/setup.js';
import { assertBoard } from '../kernel/access.js';
import { ServiceError } from '../kernel/errors.js';
import type { BoardLoginCodes } from './board-login.js';
import { errorResponses, type ZodApp } from '../kernel/route.js';
import { collectArrayPages } from '../kernel/array-pages.js';

/**
 * `POST /api/demo`: the onboarding's "start the demo company". It runs the same setup as
 * `headcount demo` (main/demo/setup.ts) through this server's own API, so the demo company is
 * made by exactly the routes, rules and events a founder's actions go through.
 */
export function demoRoutes(app: ZodApp, options: { apiUrl: () => string; boardToken: string; loginCodes: BoardLoginCodes }): void {
  app.post('/api/demo', {
    schema: {
      tags: ['board'],
      summary: 'Create the demo company (a CEO and an engineer run by the bundled demo agent) and start its few-minute story (board)',
      body: z
        .strictObject({
          invoke: z.boolean().optional().describe('Start the story at once (default true)'),
          pace: z.number().min(0).max(100).optional().describe('Scales every pause: 1 (default, or $HEADCOUNT_DEMO_PACE of the server) takes a few minutes'),
        })
        .nullish(),
      response: {
        201: z.object({
          company: z.object({ id: z.string(), name: z.string(), issuePrefix: z.string() }),
          agents: z.array(z.object({ id: z.string(), name: z.string() })),
          boardUrl: z.string().describe('A one-time sign-in link to the board, like the one `serve` prints'),
        }),
        ...errorResponses,
      },
    },
    handler: async (req, reply) => {
      assertBoard(req.actor, 'start the demo company');
      const url = options.apiUrl();
      const send = async (method: string, urlPath: string, body?: unknown) => {
        const res = await fetch(url + urlPath, {
          method,
          headers: { authorization: `Bearer ${options.boardToken}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
          body: body !== undefined ? JSON.stringify(body) : null,
        });
        const parsed = (await res.json().catch(() => null)) as { error?: string; code?: string } | null;
        if (!res.ok) throw new ServiceError(res.status >= 500 ? 500 : res.status, parsed?.code ?? 'demo_failed', `Demo setup: ${parsed?.error ?? res.statusText}`);
        return { body: parsed as unknown, link: res.headers.get('link') };
      };
      const client = {
        url,
        request: async <T>(method: string, urlPath: string, body?: unknown): Promise<T> => (await send(method, urlPath, body)).body as T,
        all: <T>(urlPath: string, pageSize?: number): Promise<T[]> => collectArrayPages<T>(urlPath, (next) => send('GET', next), pageSize),
      };
      const demo = await setupDemo(client, { invoke: req.body?.invoke ?? true, ...(req.body?.pace !== undefined ? { pace: req.body.pace } : {}) });
      // The caller holds the board token already, so a sign-in code for the same board gives nothing away.
      const boardUrl = `${url}/#/login?code=${options.loginCodes.issue()}`;
      return reply.code(201).send({ company: demo.company, agents: demo.agents.map((a) => ({ id: a.id, name: a.name })), boardUrl });
    },
  });
}
