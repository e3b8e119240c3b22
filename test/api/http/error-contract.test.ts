import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { JSON_BODY_LIMIT } from '../../../main/core/http/server.js';

let t: TestCore;
beforeEach(async () => {
  t = await startCore();
});
afterEach(async () => {
  await t.close();
});

/** Raw request, so the Host header can be forged (fetch does not allow it). */
function rawRequest(options: { path: string; method?: string; headers?: Record<string, string>; body?: string }) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: t.core.port, path: options.path, method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let data = '';
      res.on('data', (c) => (data += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: data ? JSON.parse(data) : null }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const expectContract = (body: any, code: string) => {
  expect(body).toEqual(expect.objectContaining({ code, error: expect.any(String) }));
  expect(Object.keys(body).every((k) => ['error', 'code', 'details'].includes(k))).toBe(true);
};

describe('authentication', () => {
  it('serves health without a token and nothing else', async () => {
    const health = await t.api('GET', '/api/health', { token: null });
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok', version: expect.any(String) });
    for (const path of ['/api/companies', '/api/openapi.json', '/api/agents/me']) {
      const res = await t.api('GET', path, { token: null });
      expect(res.status, path).toBe(401);
      expectContract(res.body, 'unauthorized');
    }
  });

  it('refuses wrong and malformed credentials with 401', async () => {
    for (const header of ['Bearer nope', 'Basic abc', 'Bearer', `bearer ${t.boardToken}x`, 'Bearer hck_unknownkey']) {
      const res = await t.api('GET', '/api/companies', { token: null, headers: { authorization: header } });
      expect(res.status, header).toBe(401);
      expectContract(res.body, 'unauthorized');
    }
    const ok = await t.api('GET', '/api/companies', { token: null, headers: { authorization: `bearer ${t.boardToken}` } });
    expect(ok.status).toBe(200);
  });
});

describe('host and origin guards', () => {
  it('rejects a foreign Host before authentication (DNS rebinding)', async () => {
    for (const host of ['evil.com', `evil.com:${t.core.port}`, `127.0.0.1:${t.core.port + 1}`, `localhost.evil.com:${t.core.port}`]) {
      const res = await rawRequest({ path: '/api/companies', headers: { host, authorization: `Bearer ${t.boardToken}` } });
      expect(res.status, host).toBe(403);
      expectContract(res.body, 'host_not_allowed');
      const health = await rawRequest({ path: '/api/health', headers: { host } });
      expect(health.status).toBe(403);
    }
    for (const host of [`127.0.0.1:${t.core.port}`, `localhost:${t.core.port}`]) {
      expect((await rawRequest({ path: '/api/health', headers: { host } })).status).toBe(200);
    }
  });

  it('rejects foreign browser origins even with a valid token, and sends no CORS headers', async () => {
    for (const origin of ['https://evil.com', 'null', `http://127.0.0.1:${t.core.port + 1}`]) {
      const res = await t.api('GET', '/api/companies', { headers: { origin } });
      expect(res.status, origin).toBe(403);
      expectContract(res.body, 'origin_not_allowed');
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    }
    const preflight = await t.api('OPTIONS', '/api/companies', { token: null, headers: { origin: 'https://evil.com', 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const same = await t.api('GET', '/api/companies', { headers: { origin: t.url } });
    expect(same.status).toBe(200);
    expect(same.headers.get('access-control-allow-origin')).toBeNull();
    const crossSite = await t.api('GET', '/api/companies', { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
  });
});

describe('error contract', () => {
  it('answers unknown routes with a JSON 404', async () => {
    const res = await t.api('GET', '/api/definitely-not-here');
    expect(res.status).toBe(404);
    expectContract(res.body, 'route_not_found');
    expect(res.headers.get('content-type')).toContain('application/json');
  });

  it('refuses invalid JSON, non-JSON bodies and oversized bodies, writing nothing', async () => {
    await createCompany(t);
    const before = t.snapshot();
    const invalid = await t.api('POST', '/api/companies', { raw: '{"name":', contentType: 'application/json' });
    expect(invalid.status).toBe(400);
    expectContract(invalid.body, 'invalid_json');
    const text = await t.api('POST', '/api/companies', { raw: 'name=Acme', contentType: 'text/plain' });
    expect(text.status).toBe(400);
    expectContract(text.body, 'unsupported_media_type');
    const form = await t.api('POST', '/api/companies', { raw: 'name=Acme', contentType: 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(400);
    expectContract(form.body, 'unsupported_media_type');
    const array = await t.api('POST', '/api/companies', { body: [{ name: 'x' }] });
    expect(array.status).toBe(400);
    expectContract(array.body, 'validation_error');
    const huge = await t.api('POST', '/api/companies', { body: { name: 'x', description: 'a'.repeat(JSON_BODY_LIMIT) } });
    expect(huge.status).toBe(413);
    expectContract(huge.body, 'payload_too_large');
    expect(t.snapshot()).toEqual(before);
  });

  it('names every offending field in validation errors', async () => {
    const res = await t.api('POST', '/api/companies', { body: { description: 5, color: 'red' } });
    expect(res.status).toBe(400);
    expectContract(res.body, 'validation_error');
    const paths = res.body.details.problems.map((p: any) => p.path).sort();
    expect(paths).toEqual(['body.color', 'body.description', 'body.name']);
  });

  it('answers an unexpected failure with a bare 500: no stack, no internals', async () => {
    t.core.database.sqlite.close();
    const res = await t.api('GET', '/api/companies');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'Internal server error', code: 'internal_error' });
    expect(res.text).not.toMatch(/at |sqlite|database/i);
  });

  it('marks responses nosniff and no-store: answers, refusals, unknown routes and router errors alike', async () => {
    for (const [path, status] of [['/api/companies', 200], ['/api/companies/not-a-uuid', 400], ['/api/no-such-route', 404], ['/api/companies/%', 400]] as const) {
      const res = await t.api('GET', path);
      expect(res.status, path).toBe(status);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('cache-control'), path).toBe('no-store');
    }
  });
});

describe('openapi', () => {
  it('documents every route from the zod schemas', async () => {
    const res = await t.api('GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const paths = Object.keys(res.body.paths);
    for (const p of [
      '/api/health',
      '/api/companies',
      '/api/companies/{companyId}',
      '/api/companies/{companyId}/logo',
      '/api/companies/{companyId}/archive',
      '/api/companies/{companyId}/agents',
      '/api/agents/me',
      '/api/agents/{agentId}',
      '/api/agents/{agentId}/keys',
      '/api/agents/{agentId}/config-revisions/{revisionId}/rollback',
      '/api/companies/{companyId}/org',
      '/api/companies/{companyId}/adapters/{adapterType}/models',
      '/api/companies/{companyId}/projects',
      '/api/goals/{goalId}',
      '/api/companies/{companyId}/activity',
    ]) expect(paths, p).toContain(p);
    const create = res.body.paths['/api/companies'].post;
    expect(JSON.stringify(create.requestBody)).toContain('budgetMonthlyCents');
  });
});

describe('bodies of action routes', () => {
  it('treats an empty JSON body as no body, but still refuses one where a body is required', async () => {
    const id = (await t.api('POST', '/api/companies', { body: { name: 'Acme' } })).body.id;
    const paused = await t.api('POST', `/api/companies/${id}/pause`, { raw: '', contentType: 'application/json' });
    expect(paused.status).toBe(200);
    const create = await t.api('POST', '/api/companies', { raw: '', contentType: 'application/json' });
    expect(create.status).toBe(400);
    expectContract(create.body, 'validation_error');
    const poisoned = await t.api('POST', '/api/companies', { raw: '{"name":"x","__proto__":{"admin":true}}', contentType: 'application/json' });
    expect(poisoned.status).toBe(400);
  });
});
