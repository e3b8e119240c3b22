import { z } from 'zod';
import { EnvMap, TimeoutSec } from '@service/adapter-utils/config';

const GatewayUrl = z
  .url()
  .max(4096)
  .refine((u) => /^(wss?|https?):\/\//i.test(u), 'must be a ws, wss, http or https URL');

export const VendorHGatewayConfig = z
  .strictObject({
    /** `ws(s)://` speaks the WebSocket protocol; `http(s)://` the HTTP fallback (POST {url}/runs, NDJSON). */
    url: GatewayUrl,
    /** The agent on the gateway's side that works the heartbeat. */
    agentId: z.string().min(1).max(200),
    /**
     * The name of the variable in `env` holding the gateway token: put the token there as a
     * secret reference, so it is resolved at run time and redacted from transcripts.
     */
    tokenEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/).default('GATEWAY_TOKEN'),
    env: EnvMap.optional(),
    /** The wait timeout: how long the run waits for the gateway's result (the run token lives as long). */
    timeoutSec: TimeoutSec.default(600),
    /** How long connecting (and the environment probe) may take. */
    connectTimeoutSec: z.int().min(1).max(120).default(10),
    /** WebSocket only: reconnections after the connection drops mid-run (0 = none). */
    reconnectAttempts: z.int().min(0).max(10).default(3),
    reconnectDelayMs: z.int().min(0).max(60_000).default(500),
    promptTemplate: z.string().max(65_536).optional(),
  })
  .meta({ id: 'VendorHGatewayConfig' });
export type VendorHGatewayConfig = z.infer<typeof VendorHGatewayConfig>;
