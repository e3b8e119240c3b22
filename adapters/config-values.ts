import path from 'node:path';
import { z } from 'zod';

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
