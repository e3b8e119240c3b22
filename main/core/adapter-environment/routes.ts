import type { RouteRegistrar } from '../kernel/route.js';
import { errorResponses } from '../kernel/route.js';
import { AdapterTypeParams, EnvironmentTestResult, TestEnvironmentBody } from './contract.js';
import { assertSecretsGranted } from '../secrets/grants.js';
import { findSecretRefs } from '../secrets/refs.js';
import { Redactor } from '../heartbeat/redact.js';
import { assertCompany } from '../companies/service.js';

export const adapterEnvironmentRoutes: RouteRegistrar = (app, s) => {
  /** The values of the secrets a configuration references: what its checks must never show. */
  async function referencedValues(companyId: string, config: Record<string, unknown>): Promise<string[]> {
    const refs = Object.fromEntries(findSecretRefs(config).map((f, i) => [String(i), f.ref]));
    try {
      return (await s.secrets.resolveEnv(companyId, refs)).secretValues;
    } catch {
      // A reference that does not resolve now gave the test no value to print either.
      return [];
    }
  }

  app.post('/api/companies/:companyId/adapters/:adapterType/test-environment', {
    schema: {
      tags: ['agents'],
      summary:
        'Test an adapter configuration on this computer (cwd, CLI found and its version, auth hints) without running a heartbeat. Board or an agent of the company; an agent may reference only the secrets its own configuration holds (403 secret_not_granted); unknown type: 404 adapter_not_found',
      params: AdapterTypeParams,
      body: TestEnvironmentBody,
      response: { 200: EnvironmentTestResult, ...errorResponses },
    },
    handler: async (req) => {
      const { companyId, adapterType } = req.params;
      const config = req.body.adapterConfig;
      assertCompany(s.ctx.db, req.actor, companyId);
      assertSecretsGranted(s.ctx.db, req.actor, config);
      const result = await s.adapterEnvironment.test(req.actor, companyId, adapterType, config);
      // Check messages and hints pass through the same redaction as a run's transcript.
      const redactor = new Redactor(await referencedValues(companyId, config));
      return { ...result, checks: result.checks.map((c) => redactor.deep(c)) };
    },
  });
};
