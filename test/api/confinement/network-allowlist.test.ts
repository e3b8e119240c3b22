import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bwrapCommand, hostAllowed, openRunNetwork, parseAllowEntry, parseAllowlist, proxyEnv, sandboxCheck, seatbeltCommand, seatbeltProfile } from '@service/adapter-utils';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { eventually, fakeLines, readLog, waitForRunId } from '../heartbeat/helpers.js';
import { sandboxAvailable } from './sandbox.js';

const PROBE = path.resolve(import.meta.dirname, '../../fixtures/network-probe.mjs');

let t: TestCore | undefined;
const temps: string[] = [];
const servers: http.Server[] = [];
afterEach(async () => {
  await t?.close();
  t = undefined;
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A host-side HTTP server answering `marker` and the path it was asked for. */
async function hostServer(marker: string): Promise<number> {
  const server = http.createServer((req, res) => res.end(`${marker} ${req.url} host=${req.headers.host}`));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

async function probeAgent(core: TestCore, companyId: string, name: string, env: Record<string, string>, config: Record<string, unknown>) {
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'hc-net-'));
  temps.push(cwd);
  const res = await core.api('POST', `/api/companies/${companyId}/agents`, {
    body: { name, adapterType: 'process', adapterConfig: { command: process.execPath, args: [PROBE], cwd, env, timeoutSec: 30, graceMs: 500, ...config } },
  });
  expect({ status: res.status, body: res.status === 201 ? null : res.body }).toEqual({ status: 201, body: null });
  return res.body;
}

async function runOnce(core: TestCore, agentId: string) {
  const invoked = await core.api('POST', `/api/agents/${agentId}/heartbeat/invoke`, { body: {} });
  expect(invoked.status).toBe(202);
  return waitForRunId(core, invoked.body.runId, undefined, 30_000);
}

describe('networkAllowlist entries', () => {
  it('matches hosts case-insensitively, without trailing dots, wildcards on subdomains only, ports exactly or 80/443 by default', () => {
    const list = parseAllowlist(['api.Example.com.', '*.github.com', 'registry.test:8443', '10.0.0.5', '[::1]:9000', '2001:db8::1']);
    expect(hostAllowed(list, 'API.EXAMPLE.COM', 443)).toBe(true);
    expect(hostAllowed(list, 'api.example.com.', 80)).toBe(true);
    expect(hostAllowed(list, 'api.example.com', 22)).toBe(false);
    expect(hostAllowed(list, 'evil-api.example.com', 443)).toBe(false);
    expect(hostAllowed(list, 'api.example.com.evil.test', 443)).toBe(false);
    expect(hostAllowed(list, 'raw.github.com', 443)).toBe(true);
    expect(hostAllowed(list, 'a.b.github.com', 443)).toBe(true);
    expect(hostAllowed(list, 'github.com', 443)).toBe(false);
    expect(hostAllowed(list, 'notgithub.com', 443)).toBe(false);
    expect(hostAllowed(list, 'registry.test', 8443)).toBe(true);
    expect(hostAllowed(list, 'registry.test', 443)).toBe(false);
    expect(hostAllowed(list, '10.0.0.5', 443)).toBe(true);
    expect(hostAllowed(list, '10.0.0.6', 443)).toBe(false);
    expect(hostAllowed(list, '[::1]', 9000)).toBe(true);
    expect(hostAllowed(list, '::1', 443)).toBe(false);
    expect(hostAllowed(list, '2001:DB8::1', 443)).toBe(true);
  });

  it('refuses entries that are not a host, wildcard or IP literal with an optional port', () => {
    for (const bad of ['', 'http://example.com', 'example.com/path', 'exa mple.com', '*', '*.', 'a.*.com', '*.10.0.0.1', 'host:0', 'host:70000', 'host:', '[nope]:80', '-bad-.com', 'user@host']) {
      expect({ bad, parsed: parseAllowEntry(bad) }).toEqual({ bad, parsed: null });
    }
  });

  it('the environment check names the hosts, or says the list cannot be enforced', () => {
    const bwrap = { available: true, kind: 'bubblewrap' as const };
    expect(sandboxCheck(true, bwrap, ['api.example.com'])).toMatchObject({ level: 'info', message: expect.stringContaining('api.example.com') });
    expect(sandboxCheck(false, bwrap, ['api.example.com'])).toMatchObject({ level: 'error', code: 'network_allowlist_unavailable' });
    expect(sandboxCheck(true, { available: false, kind: null, reason: 'bubblewrap (bwrap) is not installed', installHint: 'apt install bubblewrap' }, [])).toMatchObject({ level: 'error', code: 'network_allowlist_unavailable', hint: expect.stringContaining('bubblewrap') });
    expect(sandboxCheck(true, { available: true, kind: 'seatbelt' }, ['a.test'])).toMatchObject({ level: 'info', message: expect.stringContaining('a.test') });
    expect(sandboxCheck(true, { available: false, kind: null, reason: 'Windows' }, ['a.test'])).toMatchObject({ level: 'error', code: 'network_allowlist_unavailable' });
  });

  it('on macOS the Seatbelt profile denies every connection but the loopback API and the proxy, and the proxy variables are set inside', () => {
    const network = { apiPort: 4100, proxyPort: 51234 };
    const input = { cwd: '/Users/me/work', env: { HOME: '/Users/me' }, scratchDir: '/private/tmp/run-1', policy: { hidden: ['/Users/me/.service'], stateDirs: [], network } };
    const profile = seatbeltProfile(input).trim().split('\n');
    const deny = profile.indexOf('(deny network*)');
    // The last matching rule wins: the denial follows `(allow default)`, the two exceptions follow it, nothing after.
    expect(deny).toBeGreaterThan(profile.indexOf('(allow default)'));
    expect(profile.slice(deny)).toEqual(['(deny network*)', '(allow network-outbound (remote ip "localhost:4100"))', '(allow network-outbound (remote ip "localhost:51234"))']);
    expect(seatbeltProfile({ ...input, policy: { hidden: [], stateDirs: [] } })).not.toContain('network');
    const cmd = seatbeltCommand({ ...input, command: 'claude', args: ['-p', 'hi'] });
    expect(cmd.args.slice(2)).toEqual(['/usr/bin/env', '-u', 'ALL_PROXY', '-u', 'all_proxy', ...Object.entries(proxyEnv(network)).map(([k, v]) => `${k}=${v}`), 'claude', '-p', 'hi']);
    expect(proxyEnv(network)).toMatchObject({ HTTPS_PROXY: 'http://127.0.0.1:51234', http_proxy: 'http://127.0.0.1:51234', NO_PROXY: '127.0.0.1,localhost' });
  });
});

/** One raw request to the proxy at `port`; resolves with what it answered before closing. */
function viaProxy(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' }, () => socket.write(request));
    let data = '';
    socket.on('data', (b) => {
      data += b.toString('latin1');
      // A tunnel stays open: once it is established, ask through it and let the server close.
      if (data.startsWith('HTTP/1.1 200 Connection Established\r\n\r\n') && !data.includes('marker')) socket.write('GET /t HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(data));
  });
}

describe('bwrapCommand with a run network', () => {
  const bridge = { dir: '/tmp/headcount-net-x', apiSocket: '/tmp/headcount-net-x/api.sock', proxySocket: '/tmp/headcount-net-x/proxy.sock', script: '/tmp/headcount-net-x/bridge.cjs', nodePath: '/usr/bin/node', electron: true };
  const input = (env: Record<string, string>) => ({ command: 'agent', args: ['--go'], cwd: '/', env, scratchDir: '/nonexistent', policy: { hidden: [], stateDirs: [], network: { apiPort: 4100, proxyPort: 3128, bridge } } });
  const setenv = (args: string[]) => Object.fromEntries(args.flatMap((a, i) => (a === '--setenv' ? [[args[i + 1], args[i + 2]]] : [])));

  it('unshares the network, binds the socket folder read-only after the private /tmp, and starts the bridge before the command', () => {
    const { args } = bwrapCommand(input({ PATH: '/bin' }));
    expect(args).toContain('--unshare-net');
    const bind = args.findIndex((a, i) => a === '--ro-bind' && args[i + 1] === bridge.dir);
    expect(bind).toBeGreaterThan(args.indexOf('/tmp'));
    expect(args.slice(args.indexOf('--') + 1)).toEqual(['/usr/bin/node', bridge.script, '4100', bridge.apiSocket, '3128', bridge.proxySocket, '1', 'agent', '--go']);
    expect(setenv(args)).toEqual({ ...proxyEnv({ proxyPort: 3128 }), ELECTRON_RUN_AS_NODE: '1' });
    expect(args.join(' ')).toContain('--unsetenv ALL_PROXY --unsetenv all_proxy');
  });

  it('leaves an agent\'s own ELECTRON_RUN_AS_NODE to it', () => {
    const { args } = bwrapCommand(input({ ELECTRON_RUN_AS_NODE: '1' }));
    expect(setenv(args)).not.toHaveProperty('ELECTRON_RUN_AS_NODE');
    expect(args[args.indexOf('--') + 7]).toBe('0');
  });
});

describe('the run network on macOS (a loopback proxy port, no bridge)', () => {
  it('serves only the listed hosts and is closed with the run', async () => {
    const allowedPort = await hostServer('allowed-marker');
    const otherPort = await hostServer('other-marker');
    const confinement = { inheritEnv: [], sandbox: { hidden: [], stateDirs: [] }, networkAllowlist: [`127.0.0.1:${allowedPort}`] };
    const network = (await openRunNetwork(confinement, { apiUrl: 'http://127.0.0.1:4100', status: { available: true, kind: 'seatbelt' } }))!;
    try {
      expect(network.policy.bridge).toBeUndefined();
      expect(confinement.sandbox).toMatchObject({ network: { apiPort: 4100, proxyPort: network.policy.proxyPort } });
      const port = network.policy.proxyPort;
      expect(await viaProxy(port, `CONNECT 127.0.0.1:${allowedPort} HTTP/1.1\r\n\r\n`)).toContain('allowed-marker /t');
      expect(await viaProxy(port, `GET http://127.0.0.1:${allowedPort}/f HTTP/1.1\r\nHost: other.test\r\nConnection: close\r\n\r\n`)).toContain(`allowed-marker /f host=127.0.0.1:${allowedPort}`);
      for (const refused of [`CONNECT 127.0.0.1:${otherPort} HTTP/1.1\r\n\r\n`, `GET http://127.0.0.1:${otherPort}/f HTTP/1.1\r\nHost: x\r\n\r\n`, 'GET /relative HTTP/1.1\r\nHost: x\r\n\r\n', `CONNECT LOCALHOST:${allowedPort} HTTP/1.1\r\n\r\n`]) {
        const answer = await viaProxy(port, refused);
        expect({ refused, answer: answer.slice(0, 12), marker: answer.includes('marker') }).toEqual({ refused, answer: 'HTTP/1.1 403', marker: false });
      }
      // A tunnel the agent left open does not hold the run's end: closing cuts it.
      const held = net.connect({ port, host: '127.0.0.1' }, () => held.write(`CONNECT 127.0.0.1:${allowedPort} HTTP/1.1\r\n\r\n`));
      await new Promise((r) => held.once('data', r));
      const cut = new Promise((r) => held.once('close', r));
      await network.close();
      await cut;
    } finally {
      await network.close();
    }
    await expect(viaProxy(network.policy.proxyPort, 'GET / HTTP/1.1\r\n\r\n')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('is refused, never opened, where no sandbox can enforce it', async () => {
    const confinement = { inheritEnv: [], sandbox: { hidden: [], stateDirs: [] }, networkAllowlist: ['a.test'] };
    await expect(openRunNetwork(confinement, { apiUrl: 'http://127.0.0.1:4100', status: { available: false, kind: null, reason: 'Windows' } })).rejects.toMatchObject({ code: 'network_allowlist_unavailable' });
    await expect(openRunNetwork({ ...confinement, sandbox: null }, { apiUrl: 'http://127.0.0.1:4100', status: { available: true, kind: 'bubblewrap' } })).rejects.toMatchObject({ code: 'network_allowlist_unavailable' });
    expect(await openRunNetwork({ inheritEnv: [], sandbox: null }, { apiUrl: 'http://127.0.0.1:4100' })).toBeNull();
  });
});

describe('networkAllowlist configuration', () => {
  it('refuses an entry that is not a host (board_only for agents: hire-confinement.test.ts)', async () => {
    t = await startCore();
    temps.push(t.home);
    const companyId = await createCompany(t);
    const bad = await t.api('POST', `/api/companies/${companyId}/agents`, { body: { name: 'Bad', adapterType: 'process', adapterConfig: { command: 'true', networkAllowlist: ['https://example.com/'] } } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('networkAllowlist');
  });

  it('refuses the run, rather than run with an open network, where the allowlist cannot be enforced', async () => {
    t = await startCore();
    temps.push(t.home);
    const companyId = await createCompany(t);
    const agent = await probeAgent(t, companyId, 'Unsandboxed', { PROBE_DIRECT_PORT: '1' }, { sandbox: false, networkAllowlist: ['allowed.test'] });
    const run = await runOnce(t, agent.id);
    expect(run).toMatchObject({ status: 'failed', errorCode: 'network_allowlist_unavailable' });
    expect(await fakeLines(t, run.id)).toEqual([]);
  });
});

describe.skipIf(!sandboxAvailable())('an agent with a networkAllowlist, inside the sandbox', () => {
  it.each([false, true])('reaches the loopback API and, through the proxy, only the allowed hosts; nothing directly (pty: %s)', async (pty) => {
    t = await startCore();
    temps.push(t.home);
    const companyId = await createCompany(t);
    const allowedPort = await hostServer('allowed-marker');
    const otherPort = await hostServer('other-marker');
    const agent = await probeAgent(
      t,
      companyId,
      `Fenced ${pty}`,
      { PROBE_DIRECT_PORT: String(otherPort), PROBE_DENIED: `127.0.0.1:${otherPort}`, PROBE_ALLOWED: `127.0.0.1:${allowedPort}` },
      { pty, networkAllowlist: ['allowed.test', `127.0.0.1:${allowedPort}`] },
    );
    const run = await runOnce(t, agent.id);
    expect(run).toMatchObject({ status: 'succeeded', exitCode: 0 });
    const probe = (await fakeLines(t, run.id)).find((l) => l.type === 'probe');
    // (a) the loopback API, with the run token, at the unchanged SERVICE_API_URL
    expect(probe.api).toEqual({ status: 200, id: agent.id });
    expect(probe.httpsProxy).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // (b) a host port is not there at all: the sandbox has its own network namespace
    expect(probe.direct).toEqual({ error: 'ECONNREFUSED' });
    // (c) a host that is not listed is refused by the proxy, as CONNECT and as a forwarded request
    expect(probe.deniedConnect.status).toBe('HTTP/1.1 403');
    expect(probe.deniedConnect.data).not.toContain('other-marker');
    expect(probe.deniedGet.data).toMatch(/^HTTP\/1\.1 403/);
    expect(probe.deniedGet.data).not.toContain('other-marker');
    // (d) a listed host:port passes, through a CONNECT tunnel and as a forwarded request
    expect(probe.allowedConnect.status).toBe('HTTP/1.1 200');
    expect(probe.allowedConnect.data).toContain('allowed-marker /tunnelled');
    expect(probe.allowedGet.data).toMatch(/^HTTP\/1\.1 200/);
    expect(probe.allowedGet.data).toContain('allowed-marker /forwarded');
  });

  it('the bridge hands the agent\'s exit status and its cancellation through', async () => {
    const core = (t = await startCore());
    temps.push(core.home);
    const companyId = await createCompany(core);
    const exits = await probeAgent(core, companyId, 'Exits', {}, { args: ['-e', 'process.exit(3)'], networkAllowlist: ['allowed.test'] });
    expect(await runOnce(core, exits.id)).toMatchObject({ status: 'failed', exitCode: 3 });
    const hangs = await probeAgent(core, companyId, 'Hangs', {}, { args: ['-e', 'console.log("up"); setInterval(() => {}, 1000)'], networkAllowlist: ['allowed.test'] });
    const invoked = await core.api('POST', `/api/agents/${hangs.id}/heartbeat/invoke`, { body: {} });
    await waitForRunId(core, invoked.body.runId, (r) => r.status === 'running');
    await eventually(async () => ((await readLog(core, invoked.body.runId)).some((l) => l.data.includes('up')) ? true : undefined), 10_000, 'the agent to start');
    expect((await core.api('POST', `/api/heartbeat-runs/${invoked.body.runId}/cancel`, { body: {} })).status).toBeLessThan(300);
    expect(await waitForRunId(core, invoked.body.runId)).toMatchObject({ status: 'cancelled' });
    // Each run's sockets and bridge script go with it.
    await eventually(() => (readdirSync(os.tmpdir()).some((n) => n.startsWith('headcount-net-')) ? undefined : true), 5_000, 'the run network folders to go');
  });

  it('without an allowlist the network is unchanged', async () => {
    t = await startCore();
    temps.push(t.home);
    const companyId = await createCompany(t);
    const otherPort = await hostServer('other-marker');
    const agent = await probeAgent(t, companyId, 'Open', { PROBE_DIRECT_PORT: String(otherPort) }, {});
    const run = await runOnce(t, agent.id);
    expect(run).toMatchObject({ status: 'succeeded', exitCode: 0 });
    const probe = (await fakeLines(t, run.id)).find((l) => l.type === 'probe');
    expect(probe.api).toEqual({ status: 200, id: agent.id });
    expect(probe.direct.data).toContain('other-marker /');
    expect(probe.httpsProxy ?? '').not.toMatch(/^http:\/\/127\.0\.0\.1:312[89]$/);
  });
});
