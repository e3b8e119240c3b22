import { SECRET_NOT_RESOLVED, sandboxCheck, type EnvironmentCheck as Check } from '@service/adapter-utils';
import { splitConfinement } from '../../../adapters/config-values.js';
import type { CoreContext } from '../context.js';
import type { Actor } from '../kernel/actor.js';
import { assertCompany } from '../companies/service.js';
import { validateAdapterConfig } from '../agents/adapter-config.js';
import { ServiceError } from '../kernel/errors.js';
import type { ResolvedEnv } from '../secrets/resolve.js';
import { EnvironmentCheck, type EnvironmentTestResult } from './contract.js';
import { readinessOf } from './readiness.js';

/** An adapter's test may start a CLI (`--version`, a probe); it never holds a request longer. */
export const TEST_ENVIRONMENT_TIMEOUT_MS = 60_000;

export interface AdapterEnvironmentDeps {
  resolveEnv: (companyId: string, env: Record<string, unknown> | undefined) => Promise<ResolvedEnv>;
}

const finish = (adapterType: string, checks: Check[]): EnvironmentTestResult => ({
  adapterType,
  status: checks.some((c) => c.level === 'error') ? 'fail' : 'pass',
  checks,
  readiness: readinessOf(checks),
  testedAt: new Date().toISOString(),
});

/**
 * `POST …/adapters/{type}/test-environment`: validates the configuration with the adapter's
 * schema (defaults applied, secret references checked), runs the adapter's own test without
 * resolving its secrets, and adds the `sandbox` check (is the OS sandbox available for this agent). A test that throws, times out or answers out of contract is a
 * `fail` with an `environment_test_failed` error check, never a 500: plugins are not trusted.
 */
export function createAdapterEnvironmentService(ctx: CoreContext, deps: AdapterEnvironmentDeps) {
  return {
    async test(actor: Actor, companyId: string, adapterType: string, adapterConfig: Record<string, unknown>): Promise<EnvironmentTestResult> {
      assertCompany(ctx.db, actor, companyId);
      const adapter = ctx.adapters.get(adapterType);
      if (!adapter) throw new ServiceError(404, 'adapter_not_found', `No adapter of type "${adapterType}" is installed`);
      const { confinement, adapterConfig: config } = splitConfinement(validateAdapterConfig(ctx.adapters, adapterType, adapterConfig, ctx.db, companyId));
      // No secret is resolved for the checks themselves (a `--version` needs none): a secret-valued
      // variable is only known to be set. The one probe that needs the credential resolves it.
      const rawEnv = config.env as Record<string, unknown> | undefined;
      const env = Object.fromEntries(Object.entries(rawEnv ?? {}).map(([k, v]) => [k, typeof v === 'string' ? v : SECRET_NOT_RESOLVED]));
      const resolveSecrets = async () => (await deps.resolveEnv(companyId, rawEnv)).env;
      const inheritEnv = Array.isArray(confinement.inheritEnv) ? (confinement.inheritEnv as string[]) : [];
      let timer: NodeJS.Timeout | undefined;
      try {
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`the test did not finish within ${TEST_ENVIRONMENT_TIMEOUT_MS / 1000} s`)), TEST_ENVIRONMENT_TIMEOUT_MS);
        });
        const raw = await Promise.race([adapter.testEnvironment({ config, env, inheritEnv, resolveSecrets }), timeout]);
        const checks = Array.isArray(raw?.checks) ? raw.checks.map((c) => EnvironmentCheck.safeParse(c)) : [];
        const bad = !Array.isArray(raw?.checks) || checks.some((c) => !c.success);
        const valid = checks.flatMap((c) => (c.success ? [c.data] : []));
        if (bad) valid.push({ level: 'error', code: 'environment_test_failed', message: 'The adapter answered its environment test out of contract' });
        if (!adapter.remote) valid.push(sandboxCheck(confinement.sandbox !== false, undefined, confinement.networkAllowlist as string[] | undefined));
        return finish(adapterType, valid);
      } catch (err) {
        return finish(adapterType, [{ level: 'error', code: 'environment_test_failed', message: `The environment test failed: ${err instanceof Error ? err.message : String(err)}` }]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
