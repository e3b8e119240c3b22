import fc from 'fast-check';

/** One operation of the OpenAPI document, reduced to what the fuzzer needs. */
export interface Operation {
  method: string;
  path: string;
  pathParams: string[];
  query: { name: string; schema: Schema }[];
  headers: { name: string; schema: Schema }[];
  /** JSON body schema ($refs resolved one level at a time while generating). */
  body?: Schema;
}

type Schema = Record<string, any>;

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

/** Real ids by path-parameter name, plus the credentials the fuzzer may use. */
export interface FuzzContext {
  ids: Record<string, string>;
  boardToken: string;
  agentKey: string;
  doc: Schema;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export function listOperations(doc: Schema): Operation[] {
  const ops: Operation[] = [];
  for (const [p, item] of Object.entries<Schema>(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const params: Schema[] = [...(item.parameters ?? []), ...(op.parameters ?? [])];
      ops.push({
        method: method.toUpperCase(),
        path: p,
        pathParams: [...p.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
        query: params.filter((x) => x.in === 'query').map((x) => ({ name: x.name, schema: x.schema ?? {} })),
        headers: params.filter((x) => x.in === 'header').map((x) => ({ name: x.name, schema: x.schema ?? {} })),
        body: op.requestBody?.content?.['application/json']?.schema,
      });
    }
  }
  return ops;
}

function resolve(doc: Schema, schema: Schema | undefined): Schema {
  let s = schema ?? {};
  for (let i = 0; i < 5 && typeof s.$ref === 'string'; i++) {
    const name = s.$ref.split('/').pop() as string;
    s = doc.components?.schemas?.[name] ?? {};
  }
  return s;
}

/** Strings that have broken path and parser handling elsewhere. */
const nastyString = fc.constantFrom(
  '../',
  '..%2F..%2Fetc%2Fpasswd',
  '%00',
  '\u0000',
  'a'.repeat(5000),
  'ünïcødé-日本語-🙂',
  '\u202e',
  "' OR 1=1 --",
  '{}',
  '[]',
  'null',
  '-1',
  '1e400',
  ' ',
  '',
);

const anyString = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }), nastyString);

/** A random value of roughly the documented type (or, sometimes, of a wrong type). */
function valueFor(doc: Schema, raw: Schema | undefined, ctx: FuzzContext, depth: number): fc.Arbitrary<unknown> {
  const s = resolve(doc, raw);
  const wrong = fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), anyString, fc.constant([]), fc.constant({}));
  const variants: fc.Arbitrary<unknown>[] = [];
  if (Array.isArray(s.enum)) variants.push(fc.constantFrom(...(s.enum as unknown[])));
  if ('const' in s) variants.push(fc.constant(s.const));
  for (const sub of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) {
    if (depth < 3) variants.push(valueFor(doc, sub, ctx, depth + 1));
  }
  const types: string[] = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  for (const type of types) {
    switch (type) {
      case 'string':
        variants.push(fc.oneof(anyString, fc.uuid(), fc.constantFrom(...Object.values(ctx.ids)), fc.date({ noInvalidDate: true }).map((d) => d.toISOString())));
        break;
      case 'integer':
        variants.push(fc.oneof(fc.integer(), fc.integer({ min: 0, max: 100 }), fc.constantFrom(Number.MAX_SAFE_INTEGER, -1, 0)));
        break;
      case 'number':
        variants.push(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer({ min: 0, max: 1000 })));
        break;
      case 'boolean':
        variants.push(fc.boolean());
        break;
      case 'null':
        variants.push(fc.constant(null));
        break;
      case 'array':
        variants.push(depth < 3 ? fc.array(valueFor(doc, s.items, ctx, depth + 1), { maxLength: 3 }) : fc.constant([]));
        break;
      case 'object':
        variants.push(depth < 3 ? objectFor(doc, s, ctx, depth + 1) : fc.constant({}));
        break;
    }
  }
  if (variants.length === 0) variants.push(fc.jsonValue({ maxDepth: 2 }));
  return fc.oneof({ arbitrary: fc.oneof(...variants), weight: 4 }, { arbitrary: wrong, weight: 1 });
}

/** An object with a random subset of the documented properties (required ones usually present), sometimes an unknown key. */
function objectFor(doc: Schema, s: Schema, ctx: FuzzContext, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const props = Object.entries<Schema>(s.properties ?? {});
  const required = new Set<string>(s.required ?? []);
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, sub] of props) record[name] = valueFor(doc, sub, ctx, depth);
  // Any subset of the documented keys (so missing required fields are generated too) ...
  const documented = props.length ? fc.record(record, { requiredKeys: [] }) : fc.constant({} as Record<string, unknown>);
  // ... or every required key present, so requests also get past validation into the services.
  const withRequired = props.length
    ? fc.record(record, { requiredKeys: [...required].filter((k) => k in record) })
    : fc.constant({} as Record<string, unknown>);
  const extra = fc.option(fc.tuple(fc.string({ minLength: 1, maxLength: 10 }), fc.jsonValue({ maxDepth: 1 })), { nil: undefined });
  return fc.tuple(fc.oneof({ arbitrary: withRequired, weight: 3 }, { arbitrary: documented, weight: 1 }), extra).map(([obj, kv]) =>
    kv ? { ...obj, [kv[0]]: kv[1] } : obj,
  );
}

function pathParamArb(name: string, ctx: FuzzContext): fc.Arbitrary<string> {
  const real = ctx.ids[name];
  const encoded = fc.tuple(anyString, fc.boolean()).map(([s, raw]) => (raw ? s : encodeURIComponent(s)));
  return fc.oneof(
    ...(real ? [{ arbitrary: fc.constant(real), weight: 4 }] : []),
    { arbitrary: fc.constantFrom(...Object.values(ctx.ids)), weight: 1 },
    { arbitrary: fc.uuid(), weight: 2 },
    { arbitrary: encoded, weight: 2 },
  );
}

const BOUNDARY = 'fuzzboundary7MA4YWxk';

/** Body and content type: none, JSON (schema-shaped or arbitrary), text, multipart junk, or raw bytes without a type. */
function bodyArb(op: Operation, ctx: FuzzContext): fc.Arbitrary<{ contentType?: string; body?: string | Uint8Array }> {
  const json = fc.oneof(
    ...(op.body ? [{ arbitrary: valueFor(ctx.doc, op.body, ctx, 0), weight: 4 }] : []),
    { arbitrary: fc.jsonValue({ maxDepth: 3, depthSize: "small" }), weight: 2 },
  );
  const contentType = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', `multipart/form-data; boundary=${BOUNDARY}`, 'application/x-www-form-urlencoded', 'application/octet-stream');
  const multipart = fc
    .tuple(fc.string({ maxLength: 20 }), fc.string({ maxLength: 60 }), fc.boolean())
    .map(([field, content, closed]) => ({
      contentType: `multipart/form-data; boundary=${BOUNDARY}`,
      body:
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="x.png"\r\nContent-Type: image/png\r\n\r\n${content}\r\n` +
        (closed ? `--${BOUNDARY}--\r\n` : ''),
    }));
  return fc.oneof(
    { arbitrary: fc.constant({}), weight: 2 },
    { arbitrary: json.map((v) => ({ contentType: 'application/json', body: JSON.stringify(v) ?? 'null' })), weight: 6 },
    { arbitrary: fc.tuple(contentType, json).map(([ct, v]) => ({ contentType: ct, body: JSON.stringify(v) ?? '' })), weight: 1 },
    { arbitrary: fc.tuple(contentType, anyString).map(([ct, s]) => ({ contentType: ct, body: s })), weight: 1 },
    { arbitrary: multipart, weight: 1 },
    { arbitrary: fc.uint8Array({ maxLength: 64 }).map((b) => ({ body: b })), weight: 1 },
  );
}

function queryArb(op: Operation, ctx: FuzzContext): fc.Arbitrary<string> {
  const documented = op.query.map((q) =>
    fc.option(
      fc.oneof(valueFor(ctx.doc, q.schema, ctx, 1), anyString).map((v) => [q.name, typeof v === 'string' ? v : JSON.stringify(v) ?? ''] as const),
      { nil: undefined },
    ),
  );
  const random = fc.array(fc.tuple(fc.oneof(anyString, fc.constantFrom(...op.query.map((q) => q.name), 'limit', '__proto__')), anyString), { maxLength: 3 });
  return fc.tuple(fc.tuple(...documented), random).map(([doc, rnd]) => {
    const sp = new URLSearchParams();
    for (const kv of doc) if (kv) sp.append(kv[0], kv[1]);
    for (const [k, v] of rnd) sp.append(k, v);
    const qs = sp.toString();
    return qs ? `?${qs}` : '';
  });
}

export type Credential = 'board' | 'agent' | 'none' | 'garbage';

export function requestArb(op: Operation, ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const params = fc.tuple(...op.pathParams.map((n) => pathParamArb(n, ctx)));
  const credential = fc.constantFrom<Credential>('board', 'board', 'agent', 'agent', 'none', 'garbage');
  const headerValues = fc.tuple(...op.headers.map((h) => fc.option(fc.oneof(fc.uuid(), fc.string({ maxLength: 20 }).map((s) => s.replace(/[^\x20-\x7e]/g, ''))).map((v) => [h.name, v] as const), { nil: undefined })));
  return fc.tuple(params, queryArb(op, ctx), bodyArb(op, ctx), credential, headerValues).map(([values, qs, b, cred, hv]) => {
    let i = 0;
    const urlPath = op.path.replace(/\{[^}]+\}/g, () => values[i++]!);
    const headers: Record<string, string> = {};
    if (cred === 'board') headers.authorization = `Bearer ${ctx.boardToken}`;
    if (cred === 'agent') headers.authorization = `Bearer ${ctx.agentKey}`;
    if (cred === 'garbage') headers.authorization = 'Bearer hck_garbage-not-a-key';
    for (const kv of hv) if (kv) headers[kv[0]] = kv[1];
    if (b.contentType) headers['content-type'] = b.contentType;
    // fetch refuses a body on GET; those get only path, query and headers.
    const body = op.method === 'GET' ? undefined : b.body;
    if (body === undefined) delete headers['content-type'];
    return { method: op.method, url: urlPath + qs, headers, body };
  });
}
