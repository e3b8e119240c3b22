import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody } from './error-contract.js';

export type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression<RawServerDefault>,
  RawReplyDefaultExpression<RawServerDefault>,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/**
 * The services a route handler may call. Empty here so the kernel names no domain; services.ts
 * fills it in by declaration merging with the object it builds (the way Fastify types decorators).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface RouteServices {}

/** Each domain's routes.ts exports one of these; the server (http/) registers them. */
export type RouteRegistrar = (app: ZodApp, services: RouteServices) => void;

/** Error responses, for the OpenAPI document. */
export const errorResponses = { '4xx': ErrorBody, '5xx': ErrorBody } as const;

/**
 * `body` answered with `code`, for a handler that does not otherwise touch the reply:
 * `(req, reply) => answer(reply, 201, service.create(...))`. Returning `reply.code(201).send(x)`
 * instead hands Fastify the reply itself, a thenable, and resolving it registers listeners on the
 * response stream to learn when it ends: about 2% of a new issue's CPU (issue 17).
 */
export function answer<T>(reply: { code(statusCode: number): unknown }, code: number, body: T): T {
  reply.code(code);
  return body;
}
