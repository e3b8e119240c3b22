import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, createCompany, startCore, type ApiResponse, type RequestOptions, type TestCore } from '../../helpers/core.js';
import { capturingLogger, dumpTables, openEventStream, ref } from './helpers.js';

let t: TestCore | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** Each value in every form a careless encoder might produce. */
function forms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  return [value, bytes.toString('base64'), bytes.toString('base64url'), bytes.toString('hex'), JSON.stringify(value).slice(1, -1)];
}

describe('secret values never leave the service', () => {
  it('appear in no response, activity record, event, log line, table row or database file', async () => {
    const logger = capturingLogger();
    t = await startCore({ logger });
    const core = t;
    const responses: ApiResponse[] = [];
    const api = async (method: string, url: string, o?: RequestOptions) => {
      const res = await core.api(method, url, o);
      responses.push(res);
      return res;
    };
    const values = Array.from({ length: 6 }, (_, i) => `PLAINTEXT ${i} ${randomUUID()}`);
    const [v1, v2, v3, v4, v5, v6] = values as [string, string, string, string, string, string];

    const companyId = await createCompany(t);
    const events = await openEventStream(t, companyId);

    const created = await api('POST', `/api/companies/${companyId}/secrets`, { body: { name: 'STRIPE_KEY', value: v1, description: 'billing' } });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect((await api('PATCH', `/api/secrets/${id}`, { body: { value: v2 } })).status).toBe(200);
    // Refused requests carrying values: name taken, value too long, unknown field, bad name.
    expect((await api('POST', `/api/companies/${companyId}/secrets`, { body: { name: 'STRIPE_KEY', value: v3 } })).status).toBe(409);
    expect((await api('POST', `/api/companies/${companyId}/secrets`, { body: { name: 'BIG', value: v4 + 'x'.repeat(70_000) } })).status).toBe(400);
    expect((await api('PATCH', `/api/secrets/${id}`, { body: { value: v5, extra: v5 } })).status).toBe(400);
    expect((await api('POST', `/api/companies/${companyId}/secrets`, { body: { name: v6, value: v6 } })).status).toBe(400);

    const agent = await createAgent(t, companyId, { adapterConfig: { command: 'echo', env: { STRIPE: ref(id), OLD: ref(id, 1) } } });
    expect((await t.core.services.secrets.resolveEnv(companyId, agent.adapterConfig.env)).env).toEqual({ STRIPE: v2, OLD: v1 });
    expect((await api('DELETE', `/api/secrets/${id}`)).status).toBe(409);
    await api('GET', `/api/agents/${agent.id}`);
    await api('GET', `/api/agents/${agent.id}/config-revisions`);
    await api('GET', `/api/companies/${companyId}/secrets`);
    await api('GET', `/api/secrets/${id}`);
    await api('GET', '/api/system/status');
    const openapi = await api('GET', '/api/openapi.json');
    expect(Object.keys(openapi.body.paths)).toEqual(expect.arrayContaining(['/api/companies/{companyId}/secrets', '/api/secrets/{secretId}', '/api/system/status']));
    expect((await api('PATCH', `/api/agents/${agent.id}`, { body: { adapterConfig: { command: 'echo' } } })).status).toBe(200);
    expect((await api('DELETE', `/api/secrets/${id}`)).status).toBe(204);
    const activity = await api('GET', `/api/companies/${companyId}/activity?limit=200`);
    expect(activity.body.items.filter((a: any) => a.entityType === 'secret').map((a: any) => a.summary)).toEqual([
      'Secret "STRIPE_KEY" deleted',
      'Secret "STRIPE_KEY" updated: new version 2',
      'Secret "STRIPE_KEY" created (version 1)',
    ]);
    await events.waitFor('secret.deleted');
    await events.close();
    t.core.database.sqlite.pragma('wal_checkpoint(PASSIVE)');

    const tables = dumpTables(t);
    const home = t.home;
    const files = ['service.db', 'service.db-wal'].map((f) => path.join(home, f)).filter(existsSync);
    const haystacks: [string, string][] = [
      ...responses.map((r, i): [string, string] => [`response ${i}`, r.text]),
      ['events', events.text()],
      ['logs', logger.lines.join('\n')],
      ['tables', tables.text],
    ];
    for (const value of values) {
      for (const form of forms(value)) {
        for (const [where, text] of haystacks) expect(text.includes(form), `${where} contains a secret value`).toBe(false);
      }
      const bytes = Buffer.from(value, 'utf8');
      for (const blob of tables.blobs) expect(blob.includes(bytes)).toBe(false);
      for (const file of files) expect(readFileSync(file).includes(bytes), `${file} contains a secret value`).toBe(false);
    }
    // The scan saw real traffic: the secret's name and versions are there, only the values are not.
    expect(events.text()).toContain('event: secret.created');
    expect(tables.text).toContain('STRIPE_KEY');
  });
});
