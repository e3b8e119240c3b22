import { z } from 'zod';
import { Id, Timestamp } from '../kernel/common-contract.js';

export const AdapterTypeParams = z.strictObject({
  companyId: Id,
  adapterType: z.string().min(1).max(100),
});

export const TestEnvironmentBody = z.strictObject({
  adapterConfig: z.record(z.string(), z.unknown()).default({}).describe("Validated by the adapter type's configuration schema"),
});

export const EnvironmentCheck = z
  .object({
    level: z.enum(['info', 'warn', 'error']).describe('info: informational; warn: non-blocking; error: blocks execution'),
    message: z.string(),
    hint: z.string().optional(),
    code: z.string().describe('e.g. cli_detected, cli_not_found, cli_version, invalid_cwd, cwd_created'),
  })
  .meta({ id: 'EnvironmentCheck' });

export const EnvironmentTestResult = z
  .object({
    adapterType: z.string(),
    status: z.enum(['pass', 'fail']).describe('fail exactly when a check has level error'),
    checks: z.array(EnvironmentCheck),
    testedAt: Timestamp,
  })
  .meta({ id: 'EnvironmentTestResult' });
export type EnvironmentTestResult = z.infer<typeof EnvironmentTestResult>;
