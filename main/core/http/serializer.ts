import { isDeepStrictEqual } from 'node:util';
import fastJson from 'fast-json-stringify';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { JsonText } from '../kernel/json-text.js';

/**
 * Responses are written by serializers compiled once per route and status from the route's zod
 * schema (through its JSON Schema, by fast-json-stringify, as Fastify does for JSON Schema routes):
 * only the properties the schema names are written, in its order. Checking every answer with zod and
 * then `JSON.stringify`-ing the copy it returns cost a tenth of a small read's CPU.
 *
 * A schema that JSON Schema cannot express exactly (a transform, a refinement, a lazy or custom
 * type, a pipe) keeps zod's check and `JSON.stringify`, so nothing a route answers changes.
 *
 * With `checkResponses` (the test suites turn it on), every answer is also checked by zod as before
 * and the two renderings are compared: a service answering off its schema, or a compiled serializer
 * writing anything zod's copy would not, fails the request with the route's name.
 */
export interface SerializerOptions {
  checkResponses: boolean;
}

type Serialize = (data: unknown) => string;

export function responseSerializerCompiler(options: SerializerOptions) {
  return ({ schema, method, url }: { schema: unknown; method: string; url: string }): Serialize => {
    const zodSchema = asZod(schema);
    const viaZod: Serialize = (data) => {
      const result = zodSchema.safeParse(data);
      if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
      return JSON.stringify(result.data);
    };
    const checked = (compiled: Serialize): Serialize => (data) => {
      const expected = viaZod(data);
      const written = compiled(data);
      if (!isDeepStrictEqual(JSON.parse(written), JSON.parse(expected))) {
        throw new Error(`The compiled serializer of ${method} ${url} wrote ${written.slice(0, 2000)} where zod's copy is ${expected.slice(0, 2000)}`);
      }
      return written;
    };
    const checkedText = (text: string): string => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (err) {
        throw new Error(`The JSON text answered by ${method} ${url} does not parse: ${text.slice(0, 2000)}`, { cause: err });
      }
      const expected = viaZod(parsed);
      if (!isDeepStrictEqual(parsed, JSON.parse(expected))) {
        throw new Error(`The JSON text answered by ${method} ${url} is ${text.slice(0, 2000)} where zod's copy is ${expected.slice(0, 2000)}`);
      }
      return text;
    };
    // Compiled on a route's first answer, not at start: Fastify asks for every route and status at
    // start-up, and compiling them all (about 1,500) doubled the time to listening.
    let serialize: Serialize | null = null;
    return (data) => {
      // Written by SQLite already (kernel/json-text.ts); checked like the rest when checks are on.
      if (data instanceof JsonText) return options.checkResponses ? checkedText(data.text) : data.text;
      if (!serialize) {
        const compiled = compile(zodSchema);
        // fast-json-stringify picks a union's branch by validating the value against it (ajv), and
        // can refuse a value zod accepts (an undefined `unknown`, a default missing in a nullable
        // object): such an answer is written by zod instead of failing.
        const lenient: Serialize | null = compiled
          ? (data) => {
              try {
                return compiled(data);
              } catch {
                return viaZod(data);
              }
            }
          : null;
        serialize = !lenient ? viaZod : options.checkResponses ? checked(lenient) : lenient;
      }
      return serialize(data);
    };
  };
}

function asZod(schema: unknown): z.ZodType {
  if (schema instanceof z.ZodType) return schema;
  // fastify-type-provider-zod's documented shape for a response with a description.
  const properties = (schema as { properties?: unknown } | null)?.properties;
  if (properties instanceof z.ZodType) return properties;
  throw new Error(`A response schema must be a zod schema, got ${JSON.stringify(schema)}`);
}

/** A compiled serializer, or null when the schema holds anything JSON Schema renders inexactly. */
function compile(schema: z.ZodType): Serialize | null {
  if (!exactlyExpressible(schema, new Set())) return null;
  let json: Record<string, unknown>;
  try {
    json = z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'throw', cycles: 'ref', reused: 'inline' }) as Record<string, unknown>;
  } catch {
    return null;
  }
  try {
    return fastJson(openObjects(json) as unknown as Parameters<typeof fastJson>[0]) as Serialize;
  } catch {
    return null;
  }
}

/**
 * zod renders an object as `additionalProperties: false`. fast-json-stringify writes only the named
 * properties either way, but picks the branch of a union (a nullable object included) by validating
 * the value against it, and a row carrying one more column would then match no branch. zod strips
 * such properties instead; without the flag, both keep the first branch the value fits.
 */
function openObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(openObjects);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'additionalProperties' && value === false) continue;
    out[key] = openObjects(value);
  }
  return out;
}

// The zod types whose JSON Schema says all there is to serializing them; anything else (transforms,
// pipes, refinements, lazy, custom, dates, maps, sets, promises, functions) stays with zod.
const EXACT = new Set(['string', 'number', 'boolean', 'null', 'literal', 'enum', 'object', 'array', 'optional', 'nullable', 'default', 'record', 'unknown', 'any', 'readonly', 'union', 'int']);

function exactlyExpressible(schema: z.ZodType, seen: Set<z.ZodType>): boolean {
  if (seen.has(schema)) return true;
  seen.add(schema);
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string; checks?: { _zod: { def: { check: string } } }[] } } })._zod.def;
  if (!EXACT.has(def.type)) return false;
  // A refinement (`.refine`, `.superRefine`) is a check JSON Schema cannot carry, and an overwrite
  // (`.trim()`, `.toLowerCase()`, `.normalize()`) changes the value zod writes; the other built-in
  // string and number checks only constrain, and the data already meets them.
  if (def.checks?.some((c) => c._zod.def.check === 'custom' || c._zod.def.check === 'overwrite')) return false;
  const children: unknown[] = [];
  if (def.type === 'object') children.push(...Object.values(def.shape as Record<string, z.ZodType>), def.catchall);
  if (def.type === 'array') children.push(def.element);
  if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default' || def.type === 'readonly') children.push(def.innerType);
  if (def.type === 'record') children.push(def.keyType, def.valueType);
  if (def.type === 'union') children.push(...(def.options as z.ZodType[]));
  return children.every((c) => c === undefined || exactlyExpressible(c as z.ZodType, seen));
}
