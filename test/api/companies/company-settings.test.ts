import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createAgent, createAgentKey, createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { IMAGES } from '../../fixtures/images.js';
import { createFakeAgent, waitForRunId } from '../heartbeat/helpers.js';

let t: TestCore;
let companyId: string;
beforeEach(async () => {
  t = await startCore({ heartbeats: false });
  companyId = await createCompany(t, 'Doomed');
});
afterEach(async () => {
  await t.close();
});

const count = (sql: string, ...params: string[]) => (t.core.database.sqlite.prepare(sql).get(...params) as { n: number }).n;

describe('company default adapter', () => {
  it('stores an installed adapter type, clears it with null, and refuses an unknown one with nothing written', async () => {
    expect((await t.api('GET', `/api/companies/${companyId}`)).body.defaultAdapterType).toBeNull();
    const set = await t.api('PATCH', `/api/companies/${companyId}`, { body: { defaultAdapterType: 'process' } });
    expect(set.status, set.text).toBe(200);
    expect(set.body.defaultAdapterType).toBe('process');

    const before = t.snapshot();
    const unknown = await t.api('PATCH', `/api/companies/${companyId}`, { body: { defaultAdapterType: 'no_such_cli', name: 'Renamed' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('unknown_adapter_type');
    expect((await t.api('PATCH', `/api/companies/${companyId}`, { body: { defaultAdapterType: 'Not A Key' } })).status).toBe(400);
    expect(t.snapshot()).toEqual(before);
    expect((await t.api('GET', `/api/companies/${companyId}`)).body).toMatchObject({ name: 'Doomed', defaultAdapterType: 'process' });

    const cleared = await t.api('PATCH', `/api/companies/${companyId}`, { body: { defaultAdapterType: null } });
    expect(cleared.body.defaultAdapterType).toBeNull();
  });
});

describe('DELETE /api/companies/:companyId', () => {
  it('refuses a company that is not archived, or has a run going, and deletes nothing', async () => {
    const agent = await createAgent(t, companyId);
    const before = t.snapshot();
    const live = await t.api('DELETE', `/api/companies/${companyId}`);
    expect(live.status).toBe(409);
    expect(live.body.code).toBe('company_not_archived');
    expect(t.snapshot()).toEqual(before);
    expect((await t.api('GET', `/api/agents/${agent.id}`)).status).toBe(200);
  });

  it('refuses while a run is still running (archive stops only new ones), then deletes once it ended', async () => {
    const engine = await startCore();
    try {
      const cid = await createCompany(engine, 'Busy');
      const agent = await createFakeAgent(engine, cid, 'Sleeper', { FAKE_MODE: 'sleep', FAKE_SLEEP_MS: '20000' });
      const invoked = await engine.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { body: {} });
      expect(invoked.status, invoked.text).toBe(202);
      await waitForRunId(engine, invoked.body.runId, (r) => r.status === 'running');
      expect((await engine.api('POST', `/api/companies/${cid}/archive`, {})).status).toBe(200);
      const running = await engine.api('DELETE', `/api/companies/${cid}`);
      expect(running.status).toBe(409);
      expect(running.body.code).toBe('company_has_active_runs');
      expect((await engine.api('GET', `/api/companies/${cid}`)).status).toBe(200);

      expect((await engine.api('POST', `/api/heartbeat-runs/${invoked.body.runId}/cancel`, {})).status).toBe(200);
      await waitForRunId(engine, invoked.body.runId);
      expect((await engine.api('DELETE', `/api/companies/${cid}`)).status).toBe(204);
      expect(existsSync(path.join(engine.home, 'runs', `${invoked.body.runId}.jsonl`))).toBe(false);
    } finally {
      await engine.close();
    }
  }, 60_000);

  it('is the board\'s alone: an agent of the company gets 403', async () => {
    const agent = await createAgent(t, companyId);
    const key = await createAgentKey(t, agent.id);
    await t.api('POST', `/api/companies/${companyId}/archive`, {});
    expect((await t.api('DELETE', `/api/companies/${companyId}`, { token: key })).status).toBe(403);
    expect((await t.api('GET', `/api/companies/${companyId}`)).status).toBe(200);
  });

  it('removes every row, the search index and the files of an archived company, and nothing of another', async () => {
    const keep = await createCompany(t, 'Kept');
    const agent = await createAgent(t, companyId);
    await createAgentKey(t, agent.id);
    const issue = (await t.api('POST', `/api/companies/${companyId}/issues`, { body: { title: 'Quokka census', status: 'blocked' } })).body;
    await t.api('POST', `/api/issues/${issue.id}/comments`, { body: { body: 'Counting quokkas' } });
    const kept = (await t.api('POST', `/api/companies/${keep}/issues`, { body: { title: 'Quokka habitat', status: 'blocked' } })).body;
    await t.api('PUT', `/api/agents/${agent.id}/heartbeat-settings`, { body: { intervalSec: 3600, enabled: false } });
    const f = new FormData();
    f.append('file', new Blob([new Uint8Array(IMAGES.png)], { type: 'image/png' }), 'logo.png');
    const logo = await t.api('POST', `/api/companies/${companyId}/logo`, { raw: f });
    expect(logo.status, logo.text).toBe(201);
    await t.api('PATCH', `/api/companies/${companyId}`, { body: { logoAssetId: logo.body.assetId } });
    const folder = path.join(t.home, 'attachments', companyId);
    expect(existsSync(folder)).toBe(true);

    // Every text indexed now (not left pending: search/indexer.ts), so the delete has index entries to remove.
    t.core.services.search.indexPending();
    expect(count("SELECT count(*) AS n FROM search_fts WHERE search_fts MATCH 'quokka*'")).toBe(3);

    expect((await t.api('POST', `/api/companies/${companyId}/archive`, {})).status).toBe(200);
    const res = await t.api('DELETE', `/api/companies/${companyId}`);
    expect(res.status, res.text).toBe(204);

    expect((await t.api('GET', `/api/companies/${companyId}`)).status).toBe(404);
    expect((await t.api('GET', `/api/companies?includeArchived=true`)).body.map((c: { id: string }) => c.id)).toEqual([keep]);
    for (const table of ['agents', 'issues', 'issue_comments', 'activity', 'assets', 'search_docs', 'issue_blocked_counts']) {
      expect(count(`SELECT count(*) AS n FROM ${table} WHERE company_id = ?`, companyId), table).toBe(0);
    }
    expect(count('SELECT blocked AS n FROM issue_blocked_counts WHERE company_id = ?', keep)).toBe(1);
    expect(count('SELECT count(*) AS n FROM agent_api_keys WHERE agent_id = ?', agent.id)).toBe(0);
    expect(count('SELECT count(*) AS n FROM agent_heartbeat_settings WHERE agent_id = ?', agent.id)).toBe(0);
    // The FTS index holds only the kept company's text now.
    expect(count("SELECT count(*) AS n FROM search_fts WHERE search_fts MATCH 'quokka*'")).toBe(1);
    expect(count('SELECT count(*) AS n FROM pragma_foreign_key_check')).toBe(0);
    expect(existsSync(folder)).toBe(false);

    const found = await t.api('GET', `/api/companies/${keep}/search?q=quokka`);
    expect(found.body.issues.map((i: { id: string }) => i.id)).toEqual([kept.id]);
  });
});
