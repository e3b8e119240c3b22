import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { RouteRegistrar } from '../kernel/route.js';
import { errorResponses } from '../kernel/route.js';
import { PACKAGE_ROOT } from '../kernel/package-root.js';

/**
 * The heartbeat skill: a markdown guide any agent CLI can follow. dist/ holds no .md files, so it
 * is read from the package root (the source tree, or the packaged app, which ships it).
 */
export const SKILL_FILE = path.join(PACKAGE_ROOT, 'main', 'core', 'heartbeat', 'skill.md');

let cached: string | undefined;
export const heartbeatSkill = (): string => (cached ??= readFileSync(SKILL_FILE, 'utf8'));

/** The skill as adapters receive it in `runtime.skills`, to install per run where the CLI has skills. */
export const heartbeatRuntimeSkill = () => ({
  name: 'headcount-heartbeat',
  description: 'How to work one Headcount heartbeat: who am I, check out the task with the run header, comment, set the status.',
  markdown: heartbeatSkill(),
});

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
