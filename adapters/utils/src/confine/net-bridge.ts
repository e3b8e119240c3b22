/**
 * The bridge that runs first inside a sandbox with its own network namespace (see run-network.ts).
 * It listens on 127.0.0.1:<apiPort> and 127.0.0.1:<proxyPort> inside the namespace, forwards each
 * connection to the run's Unix sockets (the loopback API and the allowlisting proxy), then starts
 * the agent's command with stdio inherited (pipes or the PTY alike) and exits as it exited.
 *
 * Kept as plain CommonJS text and written next to the sockets at run start, so it runs with the
 * server's own Node (or Electron as Node) whether the utilities are loaded from source, dist or a
 * plugin bundle. Arguments: apiPort apiSocket proxyPort proxySocket runAsNode(0|1) command args...
 * (runAsNode: ELECTRON_RUN_AS_NODE was set only to start the bridge, the agent must not inherit it).
 */
export const NET_BRIDGE_SOURCE = `'use strict';
const net = require('node:net');
const { spawn } = require('node:child_process');
const [apiPort, apiSocket, proxyPort, proxySocket, runAsNode, command, ...args] = process.argv.slice(2);

function forward(port, host, target) {
  return new Promise((resolve, reject) => {
    const server = net.createServer((client) => {
      const upstream = net.connect(target);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
      client.pipe(upstream).pipe(client);
    });
    server.once('error', reject);
    server.listen(Number(port), host, () => resolve(server));
  });
}

async function main() {
  await forward(apiPort, '127.0.0.1', apiSocket);
  await forward(proxyPort, '127.0.0.1', proxySocket);
  // "localhost" may resolve to ::1 first; the namespace has no IPv6 loopback when IPv6 is off.
  await forward(apiPort, '::1', apiSocket).catch(() => {});
  const env = { ...process.env };
  if (runAsNode === '1') delete env.ELECTRON_RUN_AS_NODE;
  const child = spawn(command, args, { stdio: 'inherit', env });
  const relay = (sig) => () => child.kill(sig);
  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(sig, relay(sig));
  child.on('error', (err) => {
    process.stderr.write('[headcount] could not start ' + command + ': ' + err.message + '\\n');
    process.exit(127);
  });
  child.on('exit', (code, signal) => {
    if (signal) {
      for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.removeAllListeners(sig);
      process.kill(process.pid, signal);
    } else {
      process.exit(code ?? 1);
    }
  });
}

main().catch((err) => {
  process.stderr.write('[headcount] network bridge failed: ' + err.message + '\\n');
  process.exit(126);
});
`;
