import http from 'node:http';
import { existsSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createCompany, startCore, tempHome, type TestCore } from '../../helpers/core.js';
import { delay, rawRequest, requireBuiltCli, spawnServe, stopProcess, type RawResponse, type ServeProcess } from './serve-process.js';

const homes: string[] = [];
const cores: TestCore[] = [];
let child: ServeProcess | undefined;

function newHome(): string {
  const home = tempHome('headcount-restart-');
  homes.push(home);
  return home;
}

afterEach(async () => {
  await stopProcess(child);
  child = undefined;
  for (const c of cores.splice(0)) await c.close();
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});

/** Everything a client can read back about the data created below. */
async function readAll(t: TestCore, companyIds: string[], agentIds: string[], projectIds: string[]) {
  const get = async (p: string) => {
    const res = await t.api('GET', p);
    expect(res.status, `GET ${p}`).toBe(200);
    return res.body;
  };
  const out: Record<string, unknown> = { companies: await get('/api/companies?includeArchived=true') };
  for (const id of companyIds) {
    out[`company ${id}`] = await get(`/api/companies/${id}`);
    out[`agents of ${id}`] = await get(`/api/companies/${id}/agents`);
    out[`projects of ${id}`] = await get(`/api/companies/${id}/projects`);
    out[`org of ${id}`] = await get(`/api/companies/${id}/org`);
    out[`activity of ${id}`] = await get(`/api/companies/${id}/activity`);
  }
  for (const id of agentIds) out[`agent ${id}`] = await get(`/api/agents/${id}`);
  for (const id of projectIds) out[`project ${id}`] = await get(`/api/projects/${id}`);
  return out;
}

describe('restart on the same home', () => {
  it('serves exactly the same data after close and a new core on the same home', async () => {
    const home = newHome();
    const first = await startCore({ home });
    cores.push(first);
    const companyIds: string[] = [];
    const agentIds: string[] = [];
    const projectIds: string[] = [];
    for (const name of ['Acme', 'Globex', 'Initech']) {
      const companyId = await createCompany(first, name);
      companyIds.push(companyId);
      const ceo = await createAgent(first, companyId, { name: `${name} CEO`, role: 'ceo' });
      const cto = await createAgent(first, companyId, { name: `${name} CTO`, role: 'cto', reportsTo: ceo.id });
      agentIds.push(ceo.id, cto.id);
      for (const p of ['Launch', 'Hiring']) {
        const res = await first.api('POST', `/api/companies/${companyId}/projects`, { body: { name: `${name} ${p}`, description: 'd' } });
        expect(res.status).toBe(201);
        projectIds.push(res.body.id);
      }
    }
    // Some updates too, not only inserts.
    expect((await first.api('PATCH', `/api/projects/${projectIds[0]}`, { body: { status: 'completed' } })).status).toBe(200);
    expect((await first.api('POST', `/api/companies/${companyIds[2]}/archive`)).status).toBe(200);
    expect((await first.api('PATCH', `/api/agents/${agentIds[1]}`, { body: { title: 'Chief Tech' } })).status).toBe(200);

    const before = await readAll(first, companyIds, agentIds, projectIds);
    expect((before[`projects of ${companyIds[0]}`] as unknown[]).length).toBe(2);
    await first.close();
    cores.splice(cores.indexOf(first), 1);

    // A clean close folds the WAL back: the database file is complete on its own.
    const db = path.join(home, 'service.db');
    expect(existsSync(db)).toBe(true);
    if (existsSync(`${db}-wal`)) expect(statSync(`${db}-wal`).size).toBe(0);

    const second = await startCore({ home });
    cores.push(second);
    // Nothing pending, so no migration and no backup on a plain restart.
    expect(second.core.migration.before.pending).toBe(0);
    expect(second.core.migration.backupPath).toBeNull();
    const after = await readAll(second, companyIds, agentIds, projectIds);
    expect(after).toEqual(before);

    // The restarted core keeps writing where the first stopped.
    const more = await second.api('POST', `/api/companies/${companyIds[0]}/projects`, { body: { name: 'After restart' } });
    expect(more.status).toBe(201);
    expect((await second.api('GET', `/api/companies/${companyIds[0]}/projects`)).body).toHaveLength(3);
  });
});

describe('graceful shutdown of `serve` on SIGTERM', () => {
  beforeAll(() => requireBuiltCli());

  it('finishes requests in flight, answers or refuses the rest cleanly, exits 0 and leaves a clean database', async () => {
    const home = newHome();
    const token = 'hcb_graceful-token';
    child = await spawnServe(home, { env: { SERVICE_BOARD_TOKEN: token } });
    const { url, port } = child;
    const company = await rawRequest(url, 'POST', '/api/companies', { token, body: { name: 'Acme' } });
    expect(company.status).toBe(201);
    const companyId = JSON.parse(company.text).id as string;
    const projectsPath = `/api/companies/${companyId}/projects`;

    // 1. A request whose headers reached the server before SIGTERM but whose body arrives after it.
    const slowBody = JSON.stringify({ name: 'Slow one', description: 'x'.repeat(2000) });
    let headersSeenBy = 0;
    const slow = new Promise<RawResponse>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path: projectsPath,
          method: 'POST',
          agent: false,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(slowBody) },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (text += d));
          res.on('end', () => (res.complete ? resolve({ status: res.statusCode ?? 0, headers: res.headers, text }) : reject(new Error('slow response truncated'))));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.flushHeaders();
      req.write(slowBody.slice(0, 100));
      headersSeenBy = Date.now();
      // The rest of the body comes well after SIGTERM (sent below).
      setTimeout(() => req.end(slowBody.slice(100)), 700);
    });

    // 2. A burst of short requests, each on its own connection, spread around the signal.
    type Outcome = { sentAt: number } & ({ ok: true; res: RawResponse } | { ok: false; error: Error & { responseStarted?: boolean; code?: string } });
    const burst: Promise<Outcome>[] = [];
    let signalAt = 0;
    for (let i = 0; i < 60; i++) {
      if (i === 20) {
        await delay(Math.max(0, headersSeenBy + 150 - Date.now()));
        signalAt = Date.now();
        child.child.kill('SIGTERM');
      }
      const sentAt = Date.now();
      burst.push(
        rawRequest(url, 'POST', projectsPath, { token, body: { name: `Burst ${i}` } }).then(
          (res) => ({ sentAt, ok: true as const, res }),
          (error: Error) => ({ sentAt, ok: false as const, error }),
        ),
      );
      await delay(5);
    }

    const slowRes = await slow;
    const outcomes = await Promise.all(burst);
    const exit = await child.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(signalAt).toBeGreaterThan(0);

    // The in-flight request was finished, not cut: a complete 201 with a well-formed project.
    expect(slowRes.status, slowRes.text).toBe(201);
    const slowProject = JSON.parse(slowRes.text);
    expect(slowProject).toMatchObject({ name: 'Slow one', companyId });

    // Every response that arrived is complete JSON: a created project or a 503 error body.
    // Requests that got no response were refused or reset before any byte of a response.
    const created: string[] = [slowProject.id];
    let refused = 0;
    for (const o of outcomes) {
      if (o.ok) {
        const body = JSON.parse(o.res.text);
        if (o.res.status === 201) {
          expect(body).toMatchObject({ companyId, name: expect.stringMatching(/^Burst \d+$/) });
          created.push(body.id);
        } else {
          expect(o.res.status, o.res.text).toBe(503);
          expect(body).toMatchObject({ error: expect.any(String) });
          expect(o.sentAt).toBeGreaterThanOrEqual(signalAt);
        }
      } else {
        expect(o.error.responseStarted, `truncated response: ${o.error.message}`).toBe(false);
        expect(['ECONNREFUSED', 'ECONNRESET', 'EPIPE'], o.error.message).toContain(o.error.code);
        expect(o.sentAt).toBeGreaterThanOrEqual(signalAt);
        refused++;
      }
    }
    // All requests sent before the signal were answered (they are in `created`).
    const beforeSignal = outcomes.filter((o) => o.sentAt < signalAt);
    expect(beforeSignal.length).toBeGreaterThanOrEqual(15);
    for (const o of beforeSignal) expect(o.ok && o.res.status === 201).toBe(true);
    // The listener is closed at once: late requests are refused, not queued forever.
    expect(refused).toBeGreaterThan(0);

    // The database file is complete and consistent on its own: WAL checkpointed and removed/truncated.
    const dbFile = path.join(home, 'service.db');
    if (existsSync(`${dbFile}-wal`)) expect(statSync(`${dbFile}-wal`).size).toBe(0);
    const db = new Database(dbFile, { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const ids = (db.prepare('SELECT id FROM projects WHERE company_id = ?').all(companyId) as { id: string }[]).map((r) => r.id);
      // Every acknowledged write is there, and nothing that was refused.
      expect(new Set(ids)).toEqual(new Set(created));
    } finally {
      db.close();
    }
  });
});
