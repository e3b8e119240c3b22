import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCore, type TestCore } from '../../helpers/core.js';
import { createClient } from '../../../main/cli/client.js';
import { setupDemo, waitForDemo, type DemoResult } from '../../../main/demo/setup.js';

let t: TestCore;
beforeAll(async () => {
  t = await startCore();
});
afterAll(async () => {
  await t.close();
});

async function transcript(runId: string): Promise<string> {
  let offset = 0;
  let text = '';
  for (;;) {
    const page = await t.api('GET', `/api/heartbeat-runs/${runId}/log?offset=${offset}`);
    text += page.body.records.map((r: any) => r.data).join('');
    if (page.body.nextOffset === offset) return text;
    offset = page.body.nextOffset;
  }
}

describe('the demo company', () => {
  let demo: DemoResult;

  it('is set up over HTTP and its three heartbeats finish the three issues', async () => {
    const lines: string[] = [];
    const client = createClient({ url: t.url, token: t.boardToken });
    demo = await setupDemo(client, { log: (l) => lines.push(l) });
    expect(demo.company.name).toBe('Demo Co');
    expect(demo.agents.map((a) => a.role)).toEqual(['ceo', 'engineer', 'marketer']);
    expect(Object.keys(demo.wakeRequestIds)).toHaveLength(3);
    expect(lines.join('\n')).toContain('Created company "Demo Co"');

    const org = (await t.api('GET', `/api/agents/${demo.agents[1]!.id}`)).body;
    expect(org).toMatchObject({ reportsTo: demo.agents[0]!.id, adapterType: 'process' });

    const outcome = await waitForDemo(client, demo, 25_000);
    expect(outcome.finished).toBe(true);
    expect(outcome.issues.map((i) => i.status)).toEqual(['done', 'done', 'done']);
    expect(outcome.runs.length).toBeGreaterThanOrEqual(3);
    expect(outcome.runs.every((r) => r.status === 'succeeded')).toBe(true);
    expect(outcome.spentCents).toBe(1.5);

    for (const [i, issue] of demo.issues.entries()) {
      const detail = (await t.api('GET', `/api/issues/${issue.id}`)).body;
      expect(detail.planDocument).toMatchObject({ key: 'plan', format: 'markdown', revisionNumber: 1 });
      expect(detail.planDocument.body).toContain(`# Plan for ${issue.title}`);
      const comments = (await t.api('GET', `/api/issues/${issue.id}/comments`)).body;
      expect(comments.map((c: any) => c.authorAgentId)).toEqual([demo.agents[i]!.id, demo.agents[i]!.id]);
      expect(comments[1].body).toMatch(/^Done\./);
    }

    const byAgent = (await t.api('GET', `/api/companies/${demo.company.id}/costs/by-agent`)).body;
    for (const agent of demo.agents) expect(byAgent.find((c: any) => c.agentId === agent.id).spentCents).toBe(0.5);

    // Each agent's working run printed its progress; no transcript is empty.
    for (const run of outcome.runs) {
      const text = await transcript(run.id);
      expect(text.length).toBeGreaterThan(0);
      expect(text).toContain("Hello, I'm");
    }
    const all = (await Promise.all(outcome.runs.map((r) => transcript(r.id)))).join('');
    expect(all).toContain('Moved ' + demo.issues[0]!.identifier + ' to done.');
    expect(all).toContain('Reported my cost: 0.5 cents');
  });

  it('runs again next to the first one as "Demo Co 2"', async () => {
    const client = createClient({ url: t.url, token: t.boardToken });
    const second = await setupDemo(client, { invoke: false });
    expect(second.company.name).toBe('Demo Co 2');
    expect(second.company.id).not.toBe(demo.company.id);
    expect(second.issues.map((i) => i.identifier.split('-')[0])).not.toContain(demo.issues[0]!.identifier.split('-')[0]);
    const outcome = await waitForDemo(client, second, 25_000);
    expect(outcome.issues.map((i) => i.status)).toEqual(['done', 'done', 'done']);
    expect(outcome.spentCents).toBe(1.5);
  });

  it('`headcount demo` does the same against a running server, with the board token from the home', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'headcount-demo-cli-'));
    writeFileSync(path.join(home, 'board-token'), t.boardToken + '\n', { mode: 0o600 });
    try {
      const cli = path.resolve(import.meta.dirname, '../../../dist/main/cli/index.js');
      const child = spawn(process.execPath, [cli, '--home', home, 'demo', '--url', t.url], { env: { ...process.env, SERVICE_BOARD_TOKEN: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const code = await new Promise((resolve) => child.on('close', resolve));
      expect(code, out + err).toBe(0);
      expect(out).toContain('Created company "Demo Co 3"');
      expect(out).toMatch(/Ava: run [0-9a-f-]{36} succeeded/);
      expect(out).toMatch(/[A-Z][A-Z0-9]*-\d+ done/);
      expect(out).toContain('spent this month: 1.5 cents');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
