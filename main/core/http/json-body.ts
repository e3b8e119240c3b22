import type { FastifyRequest } from 'fastify';
import { ServiceError } from '../kernel/errors.js';
import { validationError } from '../kernel/error-contract.js';
import { hasLoneSurrogate } from '../kernel/text-rules.js';

/**
 * Deepest nesting of arrays and objects a JSON body may have. The deepest body of this API
 * (an adapter configuration, a content piece's frontmatter) needs well under ten levels; a
 * 5,000-deep body used to overflow the stack of a recursive validator and answer 500.
 */
export const MAX_JSON_DEPTH = 64;

type Done = (err: Error | null, body?: unknown) => void;
type SecureParse = (request: FastifyRequest, body: string, done: Done) => void;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Depth of the deepest array or object, counted over the text before anything is built. */
function exceedsDepth(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** Path (`body.a.0.b`) of the first key or string holding a lone surrogate; depth is bounded already. */
function loneSurrogateAt(value: unknown, path: string): string | null {
  if (typeof value === 'string') return hasLoneSurrogate(value) ? path : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const at = `${path}.${key}`;
    if (hasLoneSurrogate(key)) return at;
    const found = loneSurrogateAt(item, at);
    if (found) return found;
  }
  return null;
}

/**
 * The `application/json` body parser: the size limit is Fastify's (413), then strict UTF-8, the
 * depth limit, Fastify's own parser (prototype-poisoning protection), and no lone surrogates, which
 * SQLite would silently turn into U+FFFD. An empty body means "no body" (curl -H with no -d).
 */
export function jsonBodyParser(secureParse: SecureParse) {
  return (request: FastifyRequest, body: Buffer, done: Done): void => {
    let text: string;
    try {
      text = utf8.decode(body);
    } catch {
      return done(new ServiceError(400, 'invalid_json', 'The body is not valid UTF-8'));
    }
    if (text.trim() === '') return done(null, undefined);
    if (exceedsDepth(text, MAX_JSON_DEPTH)) {
      return done(new ServiceError(400, 'body_too_deep', `The JSON body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`, { maxDepth: MAX_JSON_DEPTH }));
    }
    secureParse(request, text, (err, parsed) => {
      if (err) return done(err);
      const at = loneSurrogateAt(parsed, 'body');
      if (at) return done(validationError([{ location: 'body', path: at, message: 'contains half of a UTF-16 surrogate pair (not valid Unicode text)' }]));
      return done(null, parsed);
    });
  };
}
