import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCore, type TestCore } from '../../helpers/core.js';

let t: TestCore;
beforeEach(async () => {
  t = await startCore({ heartbeats: false });
});
afterEach(async () => {
  await t.close();
});

/** Issue 14 points 12–14 and 16: /api/openapi.json describes the new request and response shapes. */
describe('the OpenAPI document shows the trust-work shapes', () => {
  it('brand-voice guide, free-form strategy payload, invoke result, outbox secret rules', async () => {
    const doc = (await t.api('GET', '/api/openapi.json')).body;
    const guide = doc.paths['/api/companies/{companyId}/crm/brand-voice/guide'];
    expect(Object.keys(guide).sort()).toEqual(['get', 'put']);
    const guideBody = guide.put.requestBody.content['application/json'].schema;
    expect(Object.keys(guideBody.properties).sort()).toEqual(['bannedPhrases', 'maxLength', 'minLength', 'modelCheck', 'requiredClaims', 'toneNotes']);
    const invoke = doc.paths['/api/agents/{agentId}/heartbeat/invoke'].post.responses['202'].content['application/json'].schema;
    const invokeSchema = invoke.$ref ? doc.components.schemas[invoke.$ref.split('/').pop()] : invoke;
    expect(Object.keys(invokeSchema.properties).sort()).toEqual(['coalesced', 'runId', 'wakeRequestId']);
    const strategy = doc.components.schemas.StrategyPayload;
    expect(strategy.type).toBe('object');
    expect(strategy.properties ?? {}).toEqual({});
    const hire = doc.components.schemas.HireAgentPayload;
    expect(hire.required).not.toContain('version');
    const outbox = doc.paths['/api/companies/{companyId}/crm/outboxes'].post.requestBody.content['application/json'].schema;
    expect(JSON.stringify(outbox)).toContain('smtp://');
  });
});
