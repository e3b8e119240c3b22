import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import { PACKAGE_ROOT } from '../kernel/package-root.js';
import type { ZodApp } from '../kernel/route.js';
import type { BoardLoginCodes } from './board-login.js';
import { sendError } from './error-response.js';
import { demoRoutes } from './demo-routes.js';

/** Where `npm run build` puts the renderer (vite.config.ts). */
export const BOARD_ROOT = path.join(PACKAGE_ROOT, 'dist', 'renderer');

/**
 * The board's page policy. Scripts only from this origin (no inline script, no eval); styles allow
 * inline because React style props and chart libraries set them; the API is same-origin.
 */
export const BOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const BOARD_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': BOARD_CSP,
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
};

/**
 * A request path as a file under `root`, or null when it is not a plain file there. Rejects
 * traversal and dot-files; anything else that is not a file falls back to the SPA's index.html.
 */
export function resolveBoardFile(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0] ?? '');
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const rel = path.posix.normalize(decoded).replace(/^\/+/, '');
  if (rel === '' || rel.startsWith('..') || rel.split('/').some((seg) => seg.startsWith('.'))) return null;
  const abs = path.resolve(root, rel);
  if (!abs.startsWith(root + path.sep)) return null;
  try {
    return statSync(abs).isFile() ? rel : null;
  } catch {
    return null;
  }
}

export interface BoardOptions {
  root?: string;
  boardToken: string;
  loginCodes: BoardLoginCodes;
  /** This server's own URL (the demo setup calls the API like any client). */
  apiUrl: () => string;
}

/**
 * Serves the built renderer at `/` (SPA fallback to index.html for every non-API GET) with strict
 * security headers, and the exchange of a one-time login code for the board token. /api is
 * untouched: an unknown /api path still answers in the error contract.
 */
export async function boardRoutes(app: ZodApp, options: BoardOptions): Promise<void> {
  const root = options.root ?? BOARD_ROOT;
  await app.register(fastifyStatic, { root, serve: false });
  demoRoutes(app, options);

  const sendBoard = (reply: FastifyReply, url: string) => {
    for (const [k, v] of Object.entries(BOARD_HEADERS)) reply.header(k, v);
    if (!existsSync(path.join(root, 'index.html'))) {
      return sendError(reply, 404, { error: 'The board UI is not built; run `npm run build`', code: 'board_not_built' });
    }
    const file = resolveBoardFile(root, url);
    // Vite names built assets by content hash, so they never change under the same name.
    if (file && file.startsWith('assets/')) return reply.sendFile(file, { maxAge: '365d', immutable: true });
    return reply.sendFile(file ?? 'index.html', { cacheControl: false });
  };

  app.get('/', { config: { public: true }, schema: { hide: true } }, (req, reply) => sendBoard(reply, req.url));
  app.get('/*', { config: { public: true }, schema: { hide: true } }, (req, reply) => {
    const pathname = req.url.split('?')[0] ?? '';
    if (pathname === '/api' || pathname.startsWith('/api/')) {
      return sendError(reply, 404, { error: `No route ${req.method} ${pathname}`, code: 'route_not_found' });
    }
    return sendBoard(reply, req.url);
  });
}
