import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import { createAllowlistProxy, type Dial } from './allowlist-proxy.js';
import type { Confinement } from './confinement.js';
import { NET_BRIDGE_SOURCE } from './net-bridge.js';
import { parseAllowlist } from './network-allowlist.js';
import { sandboxStatus, type NetworkPolicy, type SandboxStatus } from './sandbox.js';

export type { NetworkPolicy };

/**
 * The network of a run whose agent has a `networkAllowlist`. On Linux bubblewrap gives the sandbox
 * its own network namespace (only `lo`), so nothing is reachable except what this module bridges in
 * through two Unix sockets, bound read-only into the sandbox: the loopback API and an allowlisting
 * proxy. Inside, the bridge script (net-bridge.ts) serves them on 127.0.0.1:<apiPort> (the same port
 * as the real API, so SERVICE_API_URL is unchanged) and 127.0.0.1:<proxyPort>. On macOS the proxy
 * listens on a loopback TCP port and the Seatbelt profile denies every connection but those two
 * ports. Either way a tool that ignores the proxy variables reaches nothing: the list fails closed.
 */
export interface RunNetwork {
  policy: NetworkPolicy;
  close(): Promise<void>;
}

export class NetworkAllowlistUnavailableError extends Error {
  readonly code = 'network_allowlist_unavailable';
}

/** Why an allowlist cannot be enforced for this sandbox setting, or null when it can. */
export function networkAllowlistProblem(sandboxOn: boolean, status: SandboxStatus = sandboxStatus()): string | null {
  if (!sandboxOn) return 'the sandbox is turned off for this agent';
  if (!status.available) return `the OS sandbox is not available (${status.reason ?? 'unknown reason'})`;
  return null;
}

export interface OpenRunNetworkOptions {
  /** The loopback API the agent must still reach (the run's SERVICE_API_URL). */
  apiUrl: string;
  dial?: Dial;
  status?: SandboxStatus;
}

const listen = (server: net.Server, where: string | net.ListenOptions) =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    if (typeof where === 'string') server.listen(where, () => resolve());
    else server.listen(where, () => resolve());
  });

const closeServer = (server: net.Server | Server) =>
  new Promise<void>((resolve) => {
    server.close(() => resolve());
    (server as Server).closeAllConnections?.();
  });

/**
 * Starts the run's proxy and API bridge when the confinement has an allowlist, and puts them into
 * its sandbox policy. Null when there is no allowlist (the network stays as it is). Refuses the run
 * (`network_allowlist_unavailable`) rather than running it with an open network when the sandbox
 * that would enforce the list is off or missing.
 */
export async function openRunNetwork(confinement: Confinement, options: OpenRunNetworkOptions): Promise<RunNetwork | null> {
  const allowlist = confinement.networkAllowlist;
  if (!allowlist) return null;
  const problem = networkAllowlistProblem(confinement.sandbox !== null, options.status);
  if (problem || !confinement.sandbox) throw new NetworkAllowlistUnavailableError(`This agent has a networkAllowlist, which cannot be enforced: ${problem ?? 'no sandbox'}. The run was not started.`);
  const entries = parseAllowlist(allowlist);
  const api = new URL(options.apiUrl);
  const apiPort = Number(api.port || (api.protocol === 'https:' ? 443 : 80));
  const apiHost = api.hostname.replace(/^\[|\]$/g, '');
  const proxy = createAllowlistProxy(entries, options.dial);
  const servers: (net.Server | Server)[] = [proxy];
  // Every connection, tunnels included, is cut when the run ends: a close never waits on a half-open one.
  const open = new Set<net.Socket>();
  const track = (server: net.Server) =>
    server.on('connection', (socket: net.Socket) => {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
    });
  track(proxy);
  let dir: string | null = null;
  let policy: NetworkPolicy;
  try {
    if ((options.status ?? sandboxStatus()).kind === 'seatbelt') {
      // No namespace to bridge into: a loopback port, which the profile lets the agent reach.
      await listen(proxy, { port: 0, host: '127.0.0.1' });
      policy = { apiPort, proxyPort: (proxy.address() as net.AddressInfo).port };
    } else {
      // Resolved, so the bind lands where the bridge looks; short, as a socket path must be (108 bytes).
      dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'headcount-net-')));
      const bridge = { dir, apiSocket: path.join(dir, 'api.sock'), proxySocket: path.join(dir, 'proxy.sock'), script: path.join(dir, 'bridge.cjs'), nodePath: process.execPath, electron: Boolean(process.versions.electron) };
      policy = { apiPort, proxyPort: apiPort === 3128 ? 3129 : 3128, bridge };
      const apiBridge = net.createServer((client) => {
        const upstream = net.connect({ port: apiPort, host: apiHost });
        client.on('error', () => upstream.destroy());
        upstream.on('error', () => client.destroy());
        client.pipe(upstream).pipe(client);
      });
      servers.push(track(apiBridge));
      writeFileSync(bridge.script, NET_BRIDGE_SOURCE, { mode: 0o600 });
      await listen(apiBridge, bridge.apiSocket);
      await listen(proxy, bridge.proxySocket);
    }
  } catch (err) {
    for (const server of servers) server.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  confinement.sandbox = { ...confinement.sandbox, network: policy };
  return {
    policy,
    async close() {
      for (const socket of open) socket.destroy();
      await Promise.all(servers.map(closeServer));
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
