import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { readLog, waitForRun } from '../heartbeat/helpers.js';
import { transcriptPath } from '../../../main/core/heartbeat/transcript.js';
import { limitHits, setLimits } from './helpers.js';

const FLOOD = path.resolve(import.meta.dirname, '../../fixtures/flood-cli.mjs');
const FIXTURE = path.resolve(import.meta.dirname, '../../../adapters/vendor-a-local/fixtures/success-tool-use.jsonl');
const MiB = 1024 * 1024;

let t: TestCore | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A stream-json CLI agent whose run prints `mib` MiB before its final result line. */
async function floodingAgent(t: TestCore, companyId: string, mib: number, name = 'Flood') {
  const res = await t.api('POST', `/api/companies/${companyId}/agents`, {
    body: { name, adapterType: 'vendor_a_local', adapterConfig: { command: FLOOD, pty: false, timeoutSec: 120, env: { FLOOD_FIXTURE: FIXTURE, FLOOD_MIB: String(mib) } } },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe('the transcript cap', () => {
  it('keeps head, marker and tail of a 300 MiB flood within the cap, parses the final result, and memory stays flat', async () => {
    t = await startCore();
    const companyId = await createCompany(t);
    await setLimits(t, { transcriptMaxBytes: 4 * MiB });
    const agent = await floodingAgent(t, companyId, 300);
    // Live output: only what has a place in the file is published (the head), so the event
    // stream carries at most the cap too.
    let streamed = 0;
    const unsubscribe = t.core.services.ctx.events.subscribe(companyId, (e) => {
      if (e.type === 'run.log') streamed += Buffer.byteLength(String(e.data.data));
    });
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 20);
    try {
      expect((await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`)).status).toBe(202);
      const run = await waitForRun(t, companyId, agent.id, undefined, 170_000);
      // The usage and session come from the result line printed after the flood.
      expect(run, JSON.stringify(run)).toMatchObject({ status: 'succeeded', sessionParams: { sessionId: 'acd5810d-9a38-4668-9825-a7cea6a8f42d' } });
      expect(run.usage).toMatchObject({ outputTokens: 50 });
      // The file holds at most the cap, and the run record says how much.
      const file = transcriptPath(path.join(t.home, 'runs'), run.id);
      expect(statSync(file).size).toBeLessThanOrEqual(4 * MiB);
      expect(run.transcriptBytes).toBe(statSync(file).size);
      // The log route pages the truncated file: the CLI's first lines, the markers, the result last.
      const records = await readLog(t, run.id);
      const stdout = records.filter((r) => r.stream === 'stdout').map((r) => r.data).join('');
      expect(stdout.startsWith('{"type":"system"')).toBe(true);
      expect(stdout.trimEnd().split('\n').at(-1)).toContain('"type":"result"');
      const markers = records.filter((r) => r.stream === 'stderr' && r.data.includes('[headcount]')).map((r) => r.data);
      expect(markers[0]).toContain('output truncated');
      expect(markers[1]).toMatch(/MiB of output \(\d+ bytes\) dropped here/);
      // No leftovers of the tail segments.
      expect(() => statSync(`${file}.tail0`)).toThrow();
    } finally {
      clearInterval(sampler);
      unsubscribe();
    }
    expect(streamed).toBeGreaterThan(MiB);
    expect(streamed).toBeLessThanOrEqual(2 * MiB);
    // Loose: 300 MiB flowed through this process; it must not have been held.
    expect((rssPeak - rssBefore) / MiB).toBeLessThan(100);
    const hits = await limitHits(t, companyId);
    expect(hits[0]).toMatchObject({ actorId: agent.id, details: { limit: 'transcriptMaxBytes', max: 4 * MiB } });
    expect(hits[0].details.droppedBytes).toBeGreaterThan(290 * MiB);
  }, 180_000);
});

describe('the company transcript budget', () => {
  it('deletes the oldest finished transcripts of that company only, keeps the newest, and shows the use', async () => {
    t = await startCore();
    const acme = await createCompany(t, 'Acme');
    const other = await createCompany(t, 'Other');
    await setLimits(t, { transcriptMaxBytes: MiB, transcriptCompanyBudgetBytes: 2 * MiB });
    const agent = await floodingAgent(t, acme, 3);
    const bystander = await floodingAgent(t, other, 3, 'Bystander');
    await t.api('POST', `/api/agents/${bystander.id}/heartbeat/invoke`);
    const kept = await waitForRun(t, other, bystander.id, undefined, 60_000);
    const runs: any[] = [];
    for (let i = 0; i < 3; i++) {
      await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`);
      runs.push(await waitForRun(t, acme, agent.id, (r) => !runs.some((x) => x.id === r.id) && !['queued', 'running'].includes(r.status), 60_000));
    }
    const now = await Promise.all(runs.map(async (r) => (await t!.api('GET', `/api/heartbeat-runs/${r.id}`)).body));
    // ~1 MiB each against 2 MiB: the oldest is gone, the two newest stay.
    expect(now.map((r) => r.transcriptPurgedAt !== null)).toEqual([true, false, false]);
    expect(() => statSync(transcriptPath(path.join(t!.home, 'runs'), runs[0].id))).toThrow();
    expect(now[0].transcriptBytes).toBeGreaterThan(0);
    expect((await t.api('GET', `/api/heartbeat-runs/${kept.id}`)).body.transcriptPurgedAt).toBeNull();
    const disk = (await t.api('GET', '/api/system/disk')).body;
    const acmeUse = disk.companies.find((c: any) => c.companyId === acme);
    expect(acmeUse.transcriptBytes).toBe(now[1].transcriptBytes + now[2].transcriptBytes);
    expect(acmeUse.transcriptBudgetBytes).toBe(2 * MiB);
    expect(acmeUse.transcriptBytes).toBeLessThanOrEqual(2 * MiB);
    // A smaller budget applies at once; the newest finished transcript is always kept.
    await setLimits(t, { transcriptCompanyBudgetBytes: 1 });
    const after = await Promise.all(runs.map(async (r) => (await t!.api('GET', `/api/heartbeat-runs/${r.id}`)).body));
    expect(after.map((r) => r.transcriptPurgedAt !== null)).toEqual([true, true, false]);
  }, 120_000);
});

describe('tail segments a crashed server left behind', () => {
  it('are removed by the retention pass at start', async () => {
    const first = await startCore();
    const home = first.home;
    const runs = path.join(home, 'runs');
    mkdirSync(runs, { recursive: true });
    const stale = path.join(runs, `${randomUUID()}.jsonl.tail1`);
    writeFileSync(stale, '{"s":"o","t":1,"d":"x"}\n');
    const transcript = path.join(runs, `${randomUUID()}.jsonl`);
    writeFileSync(transcript, '{"s":"o","t":1,"d":"x"}\n');
    await first.core.close();
    t = await startCore({ home });
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(transcript)).toBe(true);
    rmSync(home, { recursive: true, force: true });
  });
});
