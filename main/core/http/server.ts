import Fastify, { type FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import { validatorCompiler, jsonSchemaTransform, jsonSchemaTransformObject, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { responseSerializerCompiler } from './serializer.js';
import { z } from 'zod';
import type { Services } from '../services.js';
import type { Logger } from '../kernel/logger.js';
import { VERSION } from '../kernel/package-root.js';
import { ServiceError } from '../kernel/errors.js';
import { sendError, toErrorResponse } from './error-response.js';
import { jsonBodyParser } from './json-body.js';
import { clientErrorHandler, DEFAULT_REQUEST_LIMITS, type RequestLimits } from './request-limits.js';
import { capConnectionsPerIp } from './connections.js';
import { allowedOrigins, isAllowedHost, isAllowedOrigin } from './host-guard.js';
import { createAuthenticator, type RunTokenCheck } from './auth.js';
import type { ZodApp } from '../kernel/route.js';
import { MAX_UPLOAD_BYTES } from '../assets/service.js';
import { companiesRoutes } from '../companies/routes.js';
import { agentsRoutes } from '../agents/routes.js';
import { assetsRoutes } from '../assets/routes.js';
import { attachmentsRoutes } from '../issues/attachments/routes.js';
import { projectsRoutes } from '../projects/routes.js';
import { workspacesRoutes } from '../workspaces/routes.js';
import { costsRoutes } from '../costs/routes.js';
import { goalsRoutes } from '../goals/routes.js';
import { activityRoutes } from '../activity/routes.js';
import { eventsRoutes } from '../events/routes.js';
import { issuesRoutes } from '../issues/routes.js';
import { heartbeatRoutes } from '../heartbeat/routes.js';
import { skillRoutes } from '../heartbeat/skill-routes.js';
import { issueDocumentsRoutes } from '../issues/documents/routes.js';
import { issueInteractionsRoutes } from '../issues/interactions/routes.js';
import { secretsRoutes } from '../secrets/routes.js';
import { approvalsRoutes } from '../approvals/routes.js';
import { crmRoutes } from '../crm/routes.js';
import { crmBrandVoiceRoutes } from '../crm/brand-voice/routes.js';
import { crmHooksRoutes } from '../crm/hooks/routes.js';
import { crmSequencesRoutes } from '../crm/sequences/routes.js';
import { boardRoutes } from './static-board.js';
import { BoardLoginCodes, boardLoginRoutes } from './board-login.js';
import { systemClock } from '../kernel/clock.js';
import { pluginsRoutes } from '../plugins/routes.js';
import { adapterEnvironmentRoutes } from '../adapter-environment/routes.js';
import { exportRoutes } from '../export/routes.js';
import { systemRoutes } from '../retention/routes.js';
import { routinesRoutes } from '../routines/routes.js';
import { labelsRoutes } from '../labels/routes.js';
import { inboxRoutes } from '../inbox/routes.js';
import { searchRoutes } from '../search/routes.js';

/** JSON bodies above this are refused with 413; uploads have their own limit. */
export const JSON_BODY_LIMIT = 1024 * 1024;

export interface ServerOptions {
  services: Services;
  boardToken: string;
  logger: Logger;
  /** Filled in once the server listens: the guard needs the real port. */
  port: () => number;
  /** Extra browser origins allowed to call the API (for example a renderer dev server). */
  extraOrigins?: readonly string[];
  /** Verifies heartbeat run tokens (the engine's). */
  runTokens?: RunTokenCheck;
  /** One-time codes of the board's login links (`serve` prints one). */
  loginCodes?: BoardLoginCodes;
  /** Folder of the built renderer; default dist/renderer. */
  boardRoot?: string;
  /** Request timeouts and the connection cap; defaults in DEFAULT_REQUEST_LIMITS. */
  requestLimits?: Partial<RequestLimits>;
  /** The outcome of the commit group open now, if any (context.ts `commitSettled`). */
  commitSettled?: () => Promise<void> | null;
}

export async function buildServer(options: ServerOptions): Promise<ZodApp> {
  const { services, logger } = options;
  const limits = { ...DEFAULT_REQUEST_LIMITS, ...options.requestLimits };
  const app = Fastify({
    logger: false,
    bodyLimit: JSON_BODY_LIMIT,
    // Slow clients (request-limits.ts): Node refuses headers longer than the request timeout.
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: {
      headersTimeout: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs),
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: limits.timeoutCheckIntervalMs,
    },
    clientErrorHandler,
    // Requests in flight finish on close; idle keep-alive sockets are closed at once.
    forceCloseConnections: 'idle',
    // Closing is answered by our own hook below, in the error contract.
    return503OnClosing: false,
    routerOptions: { maxParamLength: 200 },
    // Router errors (a malformed %-escape, a path parameter over maxParamLength) are raised before
    // the error handler exists for the request; without this they were answered in Fastify's own
    // shape ({statusCode, code: "FST_ERR_BAD_URL", message}), not the error contract. Found by the
    // route fuzzer: GET /api/companies/% and a 5,000-character path parameter.
    frameworkErrors: (err, request, reply) => {
      const { status, body } = toErrorResponse(err, logger, request);
      return sendError(reply, status, body);
    },
  }).withTypeProvider<ZodTypeProvider>();

  let lastRefusalLog = -Infinity;
  capConnectionsPerIp(app.server, limits.maxConnectionsPerIp, (address, open) => {
    // One line a minute at most: a client hammering the cap must not flood the log too.
    if (Date.now() - lastRefusalLog < 60_000) return;
    lastRefusalLog = Date.now();
    logger.warn('refused connections over the per-address cap', { address, open, max: limits.maxConnectionsPerIp });
  });

  // Only JSON (and multipart on upload routes) is accepted; a text/plain body is refused, not coerced.
  app.removeContentTypeParser('text/plain');
  // JSON bodies: strict UTF-8, at most MAX_JSON_DEPTH deep, no lone surrogates, then Fastify's own
  // parser (prototype-poisoning protection); an empty body means "no body" (json-body.ts).
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, jsonBodyParser(defaultJson));
  app.setValidatorCompiler(validatorCompiler);
  // Compiled per route from its zod schema; HEADCOUNT_CHECK_RESPONSES=1 (set by the test suites)
  // also checks every answer with zod and compares the two renderings (serializer.ts).
  app.setSerializerCompiler(responseSerializerCompiler({ checkResponses: process.env.HEADCOUNT_CHECK_RESPONSES === '1' }));
  app.decorateRequest('actor', null as never);

  app.setErrorHandler((err, request, reply) => {
    const { status, body } = toErrorResponse(err, logger, request);
    return sendError(reply, status, body);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, 404, { error: `No route ${request.method} ${request.url.split('?')[0]}`, code: 'route_not_found' }),
  );

  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, parts: 20 } });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Headcount API', version: VERSION, description: 'Local API of Headcount. Every route except /api/health needs Authorization: Bearer.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });

  // The port is known only once the server listens; the set is built once per port, not per request.
  let originsFor: { port: number; set: ReadonlySet<string> } | null = null;
  const origins = () => {
    const port = options.port();
    if (originsFor?.port !== port) originsFor = { port, set: allowedOrigins(port, options.extraOrigins) };
    return originsFor.set;
  };
  const authenticator = createAuthenticator(options.boardToken, services.agentKeys, options.runTokens, { sessions: services.boardSessions, origins });

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });

  // Order matters: the Host and Origin guards run before authentication, so a rebinding page
  // learns nothing, not even whether its token was right.
  // Callback style: authentication is synchronous but for run tokens, and an async hook costs a
  // promise and a microtask on every request (issue 17).
  const checkRunHeader = (request: FastifyRequest): void => {
    // A run token names its run; a header naming another run is refused on every route.
    const header = request.headers['x-service-run-id'];
    if (request.actor.kind === 'agent' && request.actor.runId && typeof header === 'string' && header !== request.actor.runId) {
      throw new ServiceError(403, 'run_id_mismatch', 'X-Service-Run-Id does not match the run of this token');
    }
  };
  app.addHook('onRequest', (request, reply, done) => {
    // Every answer, errors included, is never sniffed and not cached unless its route says so (a
    // route setting its own cache-control replaces this one).
    reply.header('x-content-type-options', 'nosniff');
    reply.header('cache-control', 'no-store');
    if (!isAllowedHost(request.headers.host, options.port())) {
      throw new ServiceError(403, 'host_not_allowed', 'The Host header must be the loopback address and port of this server');
    }
    const origin = request.headers.origin;
    const site = request.headers['sec-fetch-site'];
    if (!isAllowedOrigin(origin, typeof site === 'string' ? site : undefined, origins())) {
      throw new ServiceError(403, 'origin_not_allowed', 'Requests from other web origins are refused');
    }
    if (closing) throw new ServiceError(503, 'shutting_down', 'The server is shutting down; retry once it is back');
    if (request.routeOptions.config?.public) return done();
    // A synchronous throw here reaches Fastify's error handling like a rejected promise does.
    const actor = authenticator.authenticate(request);
    if (actor instanceof Promise) {
      actor.then((a) => {
        request.actor = a;
        checkRunHeader(request);
      }).then(() => done(), done);
      return;
    }
    request.actor = actor;
    checkRunHeader(request);
    done();
  });

  // Writes made close together commit together (context.ts, `groupCommits`). An answer
  // ready while a group is open may tell of, or show, what the group wrote: it leaves once the
  // group has committed, and if the commit failed it becomes that error (nothing was saved).
  const commitSettled = options.commitSettled;
  if (commitSettled) {
    app.addHook('onSend', (request, reply, payload, done) => {
      const settled = commitSettled();
      if (!settled) return done(null, payload);
      settled.then(
        () => done(null, payload),
        // The failure itself is logged once by the group (context.ts), not once per answer.
        () => done(new ServiceError(503, 'commit_failed', 'The database could not save this change; nothing was saved. Try again.')),
      );
    });
  }

  // Callback style: nothing here awaits, and an async hook costs a promise on every request.
  app.addHook('onResponse', (request, reply, done) => {
    const actor = request.actor;
    if (actor?.kind === 'agent' && actor.keyId && reply.statusCode < 400) services.agentKeys.touch(actor.keyId);
    done();
  });

  app.get('/api/health', {
    config: { public: true },
    schema: { tags: ['health'], summary: 'Liveness; needs no token', security: [], response: { 200: z.object({ status: z.literal('ok'), version: z.string() }) } },
    handler: async () => ({ status: 'ok' as const, version: VERSION }),
  });

  for (const register of [companiesRoutes, agentsRoutes, assetsRoutes, attachmentsRoutes, projectsRoutes, costsRoutes, goalsRoutes, activityRoutes, eventsRoutes, issuesRoutes, issueDocumentsRoutes, issueInteractionsRoutes, approvalsRoutes, crmRoutes, crmBrandVoiceRoutes, crmHooksRoutes, crmSequencesRoutes, secretsRoutes, heartbeatRoutes, skillRoutes, pluginsRoutes, adapterEnvironmentRoutes, exportRoutes, systemRoutes, routinesRoutes, labelsRoutes, inboxRoutes, searchRoutes, workspacesRoutes]) {
    register(app, services);
  }

  // The board UI at `/` (SPA) and its sign-in (login code or token for a session cookie).
  const loginCodes = options.loginCodes ?? new BoardLoginCodes(systemClock);
  boardLoginRoutes(app, { boardToken: options.boardToken, loginCodes, sessions: services.boardSessions });
  await boardRoutes(app, {
    boardToken: options.boardToken,
    loginCodes,
    apiUrl: () => `http://127.0.0.1:${options.port()}`,
    ...(options.boardRoot ? { root: options.boardRoot } : {}),
  });

  app.get('/api/openapi.json', {
    schema: { hide: true },
    handler: async () => app.swagger(),
  });

  return app;
}
