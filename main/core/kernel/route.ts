import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody } from './error-contract.js';
import type { Services } from '../services.js';

export type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression<RawServerDefault>,
  RawReplyDefaultExpression<RawServerDefault>,
  FastifyBaseLogger,
  ZodTypeProvider
>;

export type RouteRegistrar = (app: ZodApp, services: Services) => void;

/** Error responses, for the OpenAPI document. */
export const errorResponses = { '4xx': ErrorBody, '5xx': ErrorBody } as const;
