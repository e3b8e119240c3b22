import { afterEach, describe, expect, it } from 'vitest';
import { startCore, type TestCore } from '../../helpers/core.js';

let t: TestCore | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('GET /api/adapters/{type}/config-schema', () => {
  it("answers the adapter's input JSON Schema with its properties at the top; 404 for an unknown type", async () => {
    t = await startCore();
    const res = await t.api('GET', '/api/adapters/vendor_a_local/config-schema');
    expect(res.status).toBe(200);
    expect(res.body.type).toBe('vendor_a_local');
    expect(res.body.schema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      properties: { model: { type: 'string' }, permissionMode: { enum: expect.arrayContaining(['default', 'acceptEdits']) }, timeoutSec: { type: 'integer', default: 300 } },
    });
    // The secret reference stays a shared definition the env values point at.
    expect(res.body.schema.properties.env.additionalProperties.anyOf).toContainEqual({ $ref: '#/$defs/SecretRef' });
    expect(res.body.schema.$defs.SecretRef.properties.type).toEqual({ type: 'string', const: 'secret_ref' });
    const unknown = await t.api('GET', '/api/adapters/no_such_type/config-schema');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('adapter_not_found');
    expect((await t.api('GET', '/api/adapters/vendor_a_local/config-schema', { token: null })).status).toBe(401);
  });
});
