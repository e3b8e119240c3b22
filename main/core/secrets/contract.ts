import { z } from 'zod';
import { Id, Timestamp } from '../kernel/common-contract.js';

export const MAX_SECRET_VALUE_BYTES = 64 * 1024;

/** Env-variable-like names, plus `.` and `-` for names such as `smtp.password` or `gh-token`. */
export const SecretName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/, 'must start with a letter or _, then letters, digits, _ . - (at most 128)');

/**
 * The value is write-only. Messages here must never quote it: they reach error bodies. A lone
 * surrogate cannot be encoded as UTF-8 (it would silently become U+FFFD), so it is refused.
 */
export const SecretValue = z
  .string()
  .min(1, 'must not be empty')
  .refine((v) => Buffer.byteLength(v, 'utf8') <= MAX_SECRET_VALUE_BYTES, `must be at most ${MAX_SECRET_VALUE_BYTES} bytes of UTF-8`)
  .refine((v) => !/\p{Cs}/u.test(v), 'must be valid Unicode text (no lone surrogates)');

export const SecretDescription = z.string().max(1000);

export const SecretVersionInfo = z.object({ version: z.int().positive(), createdAt: Timestamp }).meta({ id: 'SecretVersion' });

/** Metadata only: no route ever returns a value, plain or encrypted. */
export const Secret = z
  .object({
    id: Id,
    companyId: Id,
    name: z.string(),
    description: z.string(),
    latestVersion: z.int().positive(),
    versions: z.array(SecretVersionInfo).describe('Oldest first'),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Secret' });
export type Secret = z.infer<typeof Secret>;

export const CreateSecretBody = z.strictObject({
  name: SecretName,
  value: SecretValue,
  description: SecretDescription.optional(),
});
export type CreateSecretInput = z.infer<typeof CreateSecretBody>;

/** A new `value` creates a new version; `description` alone changes metadata only. */
export const PatchSecretBody = z.strictObject({
  value: SecretValue.optional(),
  description: SecretDescription.optional(),
});
export type PatchSecretInput = z.infer<typeof PatchSecretBody>;

export const SecretIdParams = z.strictObject({ secretId: Id });

export const SystemStatus = z
  .object({
    keyProvider: z.object({
      kind: z.enum(['os-keychain', 'safe-storage', 'file', 'memory']),
      description: z.string(),
      warning: z.string().nullable().describe('Set when the master key is stored less safely than in the OS keychain'),
    }),
  })
  .meta({ id: 'SystemStatus' });
export type SystemStatus = z.infer<typeof SystemStatus>;
