import { existsSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany, startCore, tempHome, type TestCore } from '../helpers/core.js';
import { memoryKeyProvider } from '../../main/core/secrets/master-key.js';
import { bytesUnder } from '../../main/core/retention/disk.js';
import { doctor, formatDoctor } from '../../main/cli/doctor.js';

const key = memoryKeyProvider();
let home: string;
let t: TestCore;
let companyId: string;
let agentId: string;

const boot = () => startCore({ home, keyProvider: key });
const sqlite = () => t.core.database.sqlite;

async function finishedRun(): Promise<{ id: string; bytes: number }> {
  const before = new Set((sqlite().prepare('SELECT id FROM heartbeat_runs').all() as { id: string }[]).map((r) => r.id));
  const res = await t.api('POST', `/api/agents/${agentId}/heartbeat/invoke`, { body: {} });
  expect(res.status, res.text).toBe(202);
  for (let i = 0; i < 200; i++) {
    const run = (sqlite().prepare("SELECT id, status, transcript_bytes FROM heartbeat_runs ORDER BY queued_at DESC").all() as { id: string; status: string; transcript_bytes: number }[]).find((r) => !before.has(r.id));
    if (run && !['queued', 'running'].includes(run.status)) return { id: run.id, bytes: run.transcript_bytes };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('run did not finish');
}
const age = (runId: string, days: number) =>
  sqlite().prepare('UPDATE heartbeat_runs SET finished_at = ? WHERE id = ?').run(new Date(Date.now() - days * 86_400_000).toISOString(), runId);
const transcript = (runId: string) => path.join(home, 'runs', `${runId}.jsonl`);

beforeAll(async () => {
  home = tempHome('headcount-retention-');
  t = await boot();
  companyId = await createCompany(t);
  agentId = (await createAgent(t, companyId, { adapterConfig: { command: 'sh', args: ['-c', 'echo some output to keep'] } })).id;
});
afterAll(async () => {
  await t?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('retention settings', () => {
  it('has defaults, is changed through PUT /api/settings, validated, and board only', async () => {
    const got = await t.api('GET', '/api/settings');
    expect(got.body).toMatchObject({ transcriptRetentionDays: 30, backupRetentionCount: 5 });
    const bad = await t.api('PUT', '/api/settings', { body: { transcriptRetentionDays: -1 } });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('body.transcriptRetentionDays');
    const agentKey = await createAgentKey(t, agentId);
    expect((await t.api('PUT', '/api/settings', { token: agentKey, body: { backupRetentionCount: 1 } })).status).toBe(403);
    const put = await t.api('PUT', '/api/settings', { body: { backupRetentionCount: 7 } });
    expect(put.body).toMatchObject({ transcriptRetentionDays: 30, backupRetentionCount: 7 });
    expect((await t.api('GET', '/api/settings')).body.backupRetentionCount).toBe(7);
  });
});

describe('transcript retention', () => {
  it('deletes transcripts of runs that ended before the limit, keeps the run with its size and a purge time', async () => {
    const old = await finishedRun();
    const recent = await finishedRun();
    expect(old.bytes).toBeGreaterThan(0);
    expect(existsSync(transcript(old.id))).toBe(true);
    age(old.id, 11);
    age(recent.id, 9);
    // Shortening the limit applies at once.
    const put = await t.api('PUT', '/api/settings', { body: { transcriptRetentionDays: 10 } });
    expect(put.status, put.text).toBe(200);
    expect(existsSync(transcript(old.id))).toBe(false);
    expect(existsSync(transcript(recent.id))).toBe(true);
    const run = await t.api('GET', `/api/heartbeat-runs/${old.id}`);
    expect(run.body).toMatchObject({ status: 'succeeded', transcriptBytes: old.bytes });
    expect(Date.parse(run.body.transcriptPurgedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect((await t.api('GET', `/api/heartbeat-runs/${recent.id}`)).body.transcriptPurgedAt).toBeNull();
    const log = await t.api('GET', `/api/heartbeat-runs/${old.id}/log`);
    expect(log.status).toBe(200);
    expect(log.body.records).toEqual([]);
  });

  it('keeps everything with 0, and enforces the limit when the core starts', async () => {
    const kept = await finishedRun();
    age(kept.id, 400);
    await t.api('PUT', '/api/settings', { body: { transcriptRetentionDays: 0 } });
    expect(existsSync(transcript(kept.id))).toBe(true);
    // Set 30 days directly in the table (as an older build or a hand edit would), then restart.
    sqlite().prepare("UPDATE instance_settings SET value = '30' WHERE key = 'transcriptRetentionDays'").run();
    await t.close();
    t = await boot();
    expect(existsSync(transcript(kept.id))).toBe(false);
    expect((await t.api('GET', `/api/heartbeat-runs/${kept.id}`)).body.transcriptPurgedAt).not.toBeNull();
  });
});

describe('backup retention and disk use', () => {
  it('keeps the newest N backups', async () => {
    const dir = path.join(home, 'backups');
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < 9; i++) {
      const file = path.join(dir, `service-2026-0${i + 1}-01-before-0000_foundation.db`);
      writeFileSync(file, Buffer.alloc(1000 + i));
      const at = new Date(Date.UTC(2026, i, 1));
      utimesSync(file, at, at);
    }
    await t.api('PUT', '/api/settings', { body: { backupRetentionCount: 3 } });
    expect(readdirSync(dir).sort()).toEqual(['service-2026-07-01-before-0000_foundation.db', 'service-2026-08-01-before-0000_foundation.db', 'service-2026-09-01-before-0000_foundation.db']);
  });

  it('reports disk use by kind at GET /api/system/disk (board only) and in doctor', async () => {
    const res = await t.api('GET', '/api/system/disk');
    expect(res.status, res.text).toBe(200);
    expect(res.body.backups).toBe(bytesUnder(path.join(home, 'backups')));
    expect(res.body.runs).toBe(bytesUnder(path.join(home, 'runs')));
    expect(res.body.runs).toBeGreaterThan(0);
    expect(res.body.database).toBeGreaterThanOrEqual(statSync(path.join(home, 'service.db')).size);
    expect(res.body.total).toBe(res.body.database + res.body.runs + res.body.attachments + res.body.backups + res.body.plugins);
    expect(res.body.backupFiles.map((b: { name: string }) => b.name)[0]).toBe('service-2026-09-01-before-0000_foundation.db');
    const agentKey = await createAgentKey(t, agentId);
    expect((await t.api('GET', '/api/system/disk', { token: agentKey })).status).toBe(403);
    const report = await doctor(home);
    expect(report.disk.runs).toBe(res.body.runs);
    expect(report.backups).toHaveLength(3);
    expect(formatDoctor(report)).toMatch(/disk use: +[\d.]+ MiB \(database/);
  });
});
