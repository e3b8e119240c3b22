import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { startGatewayServer, type GatewayRun, type GatewayServer } from '../../fixtures/gateway-server.js';
import { createAgentKey, createCompany, startCore, type ApiResponse, type TestCore } from '../../helpers/core.js';
import { FAKE_AGENT, readLog, waitForRunId } from '../heartbeat/helpers.js';
import { capturingLogger, createSecret, ref, scanForLeaks } from './helpers.js';

/**
 * The canary: a random secret with quotes, a backslash, +, /, =, a newline and non-ASCII, printed
 * by every adapter that can run here and echoed by every route that shows configuration. Then the
 * whole data home (database, WAL, shared memory, transcripts, backups), the logs, every response
 * and an export hold it in no form: clear, JSON-escaped, URL-encoded or base64.
 */
const CANARY = `canary"${randomBytes(9).toString('hex')}\\+/=\n${randomBytes(9).toString('base64')}-é`;
/** A second canary that can travel in an HTTP header (no newline, ASCII), for the network adapters. */
const HEADER_CANARY = `hdr"${randomBytes(9).toString('hex')}\\+/=${randomBytes(9).toString('base64')}`;
const REPLAY = path.resolve(import.meta.dirname, '../../fixtures/cli-replay.mjs');
const FIXTURES = path.resolve(import.meta.dirname, '../../../adapters');
/** Local CLI adapters with recorded output, run through the replay stand-in (under a PTY where they default to one). */
const CLI_ADAPTERS: [string, string][] = [
  ['vendor_a_local', 'vendor-a-local'],
  ['vendor_b_local', 'vendor-b-local'],
  ['vendor_c_local', 'vendor-c-local'],
  ['vendor_d_local', 'vendor-d-local'],
  ['vendor_e', 'vendor-e'],
  ['vendor_f_local', 'vendor-f-local'],
  ['vendor_g_local', 'vendor-g-local'],
];

const outside = mkdtempSync(path.join(os.tmpdir(), 'hc-canary-fixtures-'));
const home = mkdtempSync(path.join(os.tmpdir(), 'hc-canary-home-'));
let webhook: http.Server | undefined;
let gateway: GatewayServer | undefined;
afterAll(async () => {
  webhook?.close();
  await gateway?.close();
  rmSync(outside, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

/** The canary in the forms CLIs print values in, one per line, for a replayed stderr. */
function formsFile(): string {
  const bytes = Buffer.from(CANARY);
  const lines = [CANARY, JSON.stringify({ token: CANARY }), encodeURIComponent(CANARY), bytes.toString('base64'), Buffer.concat([Buffer.from('x'), bytes, Buffer.from('yz')]).toString('base64')];
  const file = path.join(outside, 'forms.txt');
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

/** A recorded stream with the canary put into every field the server reads: session, model, texts, result, cost. */
function structuredFixture(dir: string, name: string): string {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(
      Object.entries(v).map(([k, inner]) => {
        if (k === 'session_id') return [k, `sess-${CANARY}`];
        if (k === 'model') return [k, `model-${CANARY}`];
        if ((k === 'result' || k === 'text') && typeof inner === 'string') return [k, `${inner} ${CANARY}`];
        if (k === 'total_cost_usd') return [k, 0.25];
        return [k, walk(inner)];
      }),
    );
  };
  const lines = readFileSync(path.join(FIXTURES, dir, 'fixtures', name), 'utf8').trim().split('\n');
  const file = path.join(outside, `${dir}-${name}`);
  writeFileSync(file, lines.map((l) => JSON.stringify(walk(JSON.parse(l)))).join('\n') + '\n');
  return file;
}

describe('canary: a secret in no form anywhere in the data home, the logs or a response', () => {
  let t: TestCore | undefined;

  it('after every adapter ran it and every configuration route echoed it', async () => {
    const logger = capturingLogger();
    t = await startCore({ home, logger });
    const core = t;
    const responses: ApiResponse[] = [];
    const api = async (method: string, url: string, o: Parameters<TestCore['api']>[2] = {}) => {
      const res = await core.api(method, url, o);
      responses.push(res);
      return res;
    };
    const company = await createCompany(t);
    const secret = await createSecret(t, company, 'CANARY', CANARY);
    const stderr = formsFile();
    const agents: { id: string; type: string }[] = [];
    const hireAgent = async (name: string, adapterType: string, adapterConfig: Record<string, unknown>) => {
      const res = await api('POST', `/api/companies/${company}/agents`, { body: { name, role: 'engineer', adapterType, adapterConfig } });
      expect(res.status, res.text).toBe(201);
      agents.push({ id: res.body.id, type: adapterType });
      return res.body;
    };

    // The process adapter, on pipes and under a terminal, printing every form.
    for (const pty of [false, true]) {
      await hireAgent(`Process ${pty ? 'pty' : 'pipes'}`, 'process', { command: process.execPath, args: [FAKE_AGENT], timeoutSec: 30, graceMs: 500, pty, env: { FAKE_MODE: 'echo-forms', FAKE_SECRET: ref(secret.id) } });
    }
    // Claude Code's stream with the canary in its session id, model, texts, result and cost; once succeeding, once failing.
    for (const name of ['success-tool-use.jsonl', 'error.jsonl']) {
      await hireAgent(`Claude ${name}`, 'vendor_a_local', { command: REPLAY, cwd: outside, timeoutSec: 30, env: { CLI_REPLAY_FILE: structuredFixture('vendor-a-local', name), CLI_REPLAY_STDERR_FILE: stderr, CLI_REPLAY_WAIT_STDIN: '0', CANARY: ref(secret.id) } });
    }
    // Every other local CLI adapter, replaying its recorded success and printing the forms on stderr.
    for (const [type, dir] of CLI_ADAPTERS.slice(1)) {
      const optIn = type === 'vendor_c_local' ? { enableExperimental: true } : {};
      await hireAgent(`Cli ${type}`, type, { ...optIn, command: REPLAY, cwd: outside, timeoutSec: 30, env: { CLI_REPLAY_FILE: path.join(FIXTURES, dir, 'fixtures', 'success-tool-use.jsonl'), CLI_REPLAY_STDERR_FILE: stderr, CLI_REPLAY_WAIT_STDIN: '0', CANARY: ref(secret.id) } });
    }

    // The network adapters: a webhook that echoes the header it was sent (answering 500), a header
    // value the HTTP client refuses (its error names the value), and a gateway whose remote agent
    // echoes its token in its log, usage, summary and session key.
    const headerSecret = await createSecret(t, company, 'HEADER_CANARY', HEADER_CANARY);
    webhook = http.createServer((req, res) => {
      req.resume();
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'refused', youSent: req.headers.authorization }));
    });
    await new Promise<void>((r) => webhook!.listen(0, '127.0.0.1', r));
    const webhookUrl = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/hook`;
    await hireAgent('Webhook', 'http', { url: webhookUrl, headers: { authorization: ref(headerSecret.id) } });
    await hireAgent('Bad header', 'http', { url: webhookUrl, headers: { 'x-key': ref(secret.id) } });
    gateway = await startGatewayServer({
      token: HEADER_CANARY,
      agents: ['echo'],
      handler: (run: GatewayRun) => {
        const sessionKey = `gw:${HEADER_CANARY}`;
        run.send({ type: 'accepted', runId: run.request.runId, sessionKey });
        run.log(`token ${HEADER_CANARY} ${Buffer.from(HEADER_CANARY).toString('base64')}\n`);
        run.send({ type: 'usage', provider: `p-${HEADER_CANARY}`, model: `m-${HEADER_CANARY}`, inputTokens: 10, outputTokens: 5, costUsd: 0.01 });
        run.send({ type: 'result', status: 'failed', summary: `summary ${HEADER_CANARY}`, error: { code: 'remote_failed', message: `error ${HEADER_CANARY}` }, sessionKey });
      },
    });
    await hireAgent('Gateway', 'vendor_h_gateway', { url: gateway.wsUrl, agentId: 'echo', timeoutSec: 30, env: { GATEWAY_TOKEN: ref(headerSecret.id) } });

    const runs: any[] = [];
    for (const agent of agents) {
      const invoked = await api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { body: {} });
      expect(invoked.status, invoked.text).toBe(202);
    }
    for (const agent of agents) {
      const list = async () => (await core.api('GET', `/api/companies/${company}/heartbeat-runs?agentId=${agent.id}`)).body.items;
      let run: any;
      for (let i = 0; i < 400 && !run; i++) {
        run = (await list()).find((r: any) => !['queued', 'running'].includes(r.status));
        if (!run) await new Promise((r) => setTimeout(r, 50));
      }
      expect(run, `${agent.type} finished`).toBeTruthy();
      runs.push(await waitForRunId(core, run.id));
    }
    // The runs did see the canary: their output carries the redaction marker.
    for (const run of runs) {
      const log = (await readLog(core, run.id)).map((r) => r.data).join('');
      expect(log, `${run.adapterType} printed the canary`).toContain('[redacted]');
    }
    const claude = runs.filter((r) => r.adapterType === 'vendor_a_local');
    expect(claude.map((r) => r.status).sort()).toEqual(['failed', 'succeeded']);
    expect(claude.find((r) => r.status === 'succeeded').sessionParams.sessionId).toBe('sess-[redacted]');

    // Every route that echoes configuration or run records, from the board and from a colleague.
    const colleague = await hireAgent('Colleague', 'process', { command: 'echo' });
    const colleagueKey = await createAgentKey(t, colleague.id);
    const hire = await api('POST', `/api/companies/${company}/agent-hires`, {
      body: { name: 'Hire', role: 'engineer', reportsTo: null, capabilities: 'x', budgetMonthlyCents: 0, adapterType: 'process', adapterConfig: { command: 'echo', env: { K: ref(secret.id) } } },
    });
    expect(hire.status).toBe(201);
    const printer = path.join(outside, 'version.sh');
    writeFileSync(printer, '#!/bin/sh\nprintf "v1 %s\\n" "$CANARY"\n');
    chmodSync(printer, 0o755);
    await api('POST', `/api/companies/${company}/adapters/vendor_a_local/test-environment`, { body: { adapterConfig: { command: printer, cwd: outside, env: { CANARY: ref(secret.id) } } } });
    for (const token of [undefined, colleagueKey]) {
      const as = token ? { token } : {};
      await api('GET', `/api/companies/${company}/agents`, as);
      await api('GET', `/api/companies/${company}/approvals`, as);
      await api('GET', `/api/approvals/${hire.body.approval.id}`, as);
      await api('GET', `/api/companies/${company}/heartbeat-runs`, as);
      await api('GET', `/api/companies/${company}/activity?limit=200`, as);
      await api('GET', `/api/companies/${company}/costs/by-agent`, as);
      for (const agent of agents) {
        await api('GET', `/api/agents/${agent.id}`, as);
        await api('GET', `/api/agents/${agent.id}/config-revisions`, as);
      }
      for (const run of runs) {
        await api('GET', `/api/heartbeat-runs/${run.id}`, as);
        await api('GET', `/api/heartbeat-runs/${run.id}/log?offset=0`, as);
      }
    }
    const exported = await fetch(`${t.url}/api/companies/${company}/export`, { headers: { authorization: `Bearer ${t.boardToken}` } });
    expect(exported.status).toBe(200);
    const archive = gunzipSync(Buffer.from(await exported.arrayBuffer()));

    const extra: [string, string | Buffer][] = [...responses.map((r, i): [string, string] => [`response ${i} (${r.status})`, r.text]), ['logs', logger.lines.join('\n')], ['export', archive]];
    expect(scanForLeaks(home, CANARY, extra)).toEqual([]);
    expect(scanForLeaks(home, HEADER_CANARY, extra)).toEqual([]);
    // And once more after a clean shutdown folded the WAL into the database file.
    await t.close();
    t = undefined;
    expect(scanForLeaks(home, CANARY)).toEqual([]);
    expect(scanForLeaks(home, HEADER_CANARY)).toEqual([]);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });
});
