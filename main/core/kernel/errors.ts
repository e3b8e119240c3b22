/**
 * The one error type services throw. The HTTP layer turns it into the error contract of DESIGN.md:
 * `{"error": "<human message>", "code": "<snake_case_code>", "details"?: ...}`.
 */
export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}

export const badRequest = (code: string, message: string, details?: unknown) =>
  new ServiceError(400, code, message, details);
export const forbidden = (message = 'This credential may not do that', code = 'forbidden') =>
  new ServiceError(403, code, message);
export const conflict = (code: string, message: string, details?: unknown) =>
  new ServiceError(409, code, message, details);

/**
 * Not found. Agents asking for another company's records get exactly this too, so a foreign id
 * cannot be told apart from one that does not exist.
 */
export const notFound = (entity: string) =>
  new ServiceError(404, 'not_found', `${entity} not found`);
