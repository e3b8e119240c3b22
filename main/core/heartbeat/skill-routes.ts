import { z } from 'zod';
import type { RouteRegistrar } from '../kernel/route.js';
import { errorResponses } from '../kernel/route.js';
import { heartbeatSkill } from './skill.js';

export const skillRoutes: RouteRegistrar = (app) => {
  app.get('/api/skills/heartbeat', {
    schema: {
      tags: ['heartbeats'],
      summary: 'The heartbeat skill (text/markdown): how an agent works with this API in one heartbeat',
      response: { 200: z.string().describe('Markdown'), ...errorResponses },
    },
    handler: async (_req, reply) => reply.type('text/markdown; charset=utf-8').send(heartbeatSkill()),
  });
};
