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
