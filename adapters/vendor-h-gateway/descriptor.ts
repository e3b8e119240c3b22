import type { AdapterDescriptor } from '@service/adapter-utils';
import { VendorHGatewayConfig } from './config.js';
import { executeGateway } from './execute.js';
import { testGatewayEnvironment } from './environment.js';
import { sessionCodec } from './session.js';
import { cliFormatter } from './cli-formatter.js';
import { uiParser } from './ui-parser.js';

export const type = 'vendor_h_gateway';
export const label = 'Agent gateway (remote)';
export const models = [];

export const agentConfigurationDoc = `# vendor_h_gateway — remote agent gateway

Hands each heartbeat to an agent behind a gateway (another machine, a hosted runtime) and streams
its work back: logs, usage and the result arrive while it runs. The protocol (WebSocket, with an
HTTP/NDJSON fallback) is described in adapters/vendor-h-gateway/PROTOCOL.md.

**Use when** the agent runs elsewhere, stays connected while it works, and can call the Headcount
API back with the run token it receives (\`SERVICE_API_URL\`, \`SERVICE_API_KEY\` in the run request).

**Do not use when** the agent is a CLI on this computer (use its local adapter), or the remote
side only takes a fire-and-forget webhook (use \`http\`).

Configuration: \`url\` (\`ws://\`, \`wss://\`, or \`http(s)://\` for the fallback), \`agentId\` (the
gateway's agent), \`tokenEnv\` (default \`GATEWAY_TOKEN\`: the env variable holding the gateway
token — set it in \`env\` as a secret reference), \`timeoutSec\` (the wait timeout, default 600; the
gateway is told to cancel when it passes), \`connectTimeoutSec\` (10), \`reconnectAttempts\` (3,
WebSocket only) and \`reconnectDelayMs\` (500), \`promptTemplate\`.

Errors: \`gateway_auth_failed\` (token refused), \`gateway_unreachable\`, \`gateway_disconnected\`,
\`gateway_protocol_error\` (a malformed frame), \`timeout\`, \`cancelled\`, and the remote agent's
own codes (\`unknown_session\` clears the session key and retries once; \`rate_limited\`).
`;

export const vendorHGatewayAdapter: AdapterDescriptor = {
  type,
  label,
  models,
  agentConfigurationDoc,
  configSchema: VendorHGatewayConfig,
  remote: true,
  execute: executeGateway,
  testEnvironment: testGatewayEnvironment,
  sessionCodec,
  cliFormatter,
  uiParser,
};
