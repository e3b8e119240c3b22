import path from 'node:path';
import { z } from 'zod';
import { parseAllowEntry } from './confine/network-allowlist.js';

/** A reference to a company secret inside `adapterConfig.env` (spec 2.8). */
export const SecretRef = z
  .strictObject({
    type: z.literal('secret_ref'),
    secretId: z.uuid(),
    version: z.union([z.literal('latest'), z.int().positive()]).default('latest'),
  })
  .meta({ id: 'SecretRef' });
export type SecretRef = z.infer<typeof SecretRef>;

/** An environment value: plain text, or a secret resolved when the heartbeat starts. */
export const EnvValue = z.union([z.string().max(32_768), SecretRef]);

/**
 * Environment variable names. `SERVICE_*` is reserved: the heartbeat engine sets those (run token,
 * ids), and letting configuration shadow them would let an agent impersonate another run.
 */
export const EnvMap = z
  .record(
    z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, 'must be a valid environment variable name')
      .refine((k) => !k.toUpperCase().startsWith('SERVICE_'), 'SERVICE_* names are set by Headcount'),
    EnvValue,
  )
  .refine((m) => Object.keys(m).length <= 200, 'at most 200 variables');

export const AbsolutePath = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => path.isAbsolute(p), 'must be an absolute path');

export const TimeoutSec = z.int().min(1).max(86_400);
export const GraceMs = z.int().min(0).max(600_000);

/**
 * The agent's confinement settings, stored in `adapterConfig` next to the adapter's own fields and
 * valid for every adapter type (plugins included): the core takes them out before the adapter's
 * schema sees the configuration.
 *
 * `inheritEnv`: extra variable names the agent's processes get from the server's environment
 * (beyond PATH, HOME, LANG...). The server's own settings (SERVICE_*) can never be listed.
 * `sandbox`: `false` runs the agent outside the OS sandbox (default on), behind a warning.
 * `networkAllowlist`: the only hosts the agent's processes may reach, through a proxy, besides the
 * loopback API (docs/security.md); absent, the network is open.
 */
export const ConfinementConfig = z.strictObject({
  inheritEnv: z
    .array(
      z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, 'must be a valid environment variable name')
        .refine((k) => !k.toUpperCase().startsWith('SERVICE_'), 'SERVICE_* names belong to the server and are never passed to agents'),
    )
    .max(100)
    .optional(),
  sandbox: z.boolean().optional(),
  networkAllowlist: z
    .array(z.string().max(260).refine((e) => parseAllowEntry(e) !== null, 'must be a host name, *.domain or IP address, with an optional :port'))
    .max(200)
    .optional(),
});
export type ConfinementConfig = z.infer<typeof ConfinementConfig>;
export const CONFINEMENT_KEYS = ['inheritEnv', 'sandbox', 'networkAllowlist'] as const;

/** Splits an adapterConfig into the confinement settings and what the adapter itself reads. */
export function splitConfinement(config: Record<string, unknown>): { confinement: Record<string, unknown>; adapterConfig: Record<string, unknown> } {
  const confinement: Record<string, unknown> = {};
  const adapterConfig: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(config)) ((CONFINEMENT_KEYS as readonly string[]).includes(k) ? confinement : adapterConfig)[k] = v;
  return { confinement, adapterConfig };
}
