import type { RouteRegistrar } from '../http/types.js';
import { errorResponses } from '../http/types.js';
import { AdapterTypeParams, EnvironmentTestResult, TestEnvironmentBody } from './contract.js';

export const adapterEnvironmentRoutes: RouteRegistrar = (app, s) => {
  app.post('/api/companies/:companyId/adapters/:adapterType/test-environment', {
    schema: {
      tags: ['agents'],
      summary: "Test an adapter configuration on this computer (cwd, CLI found and its version, auth hints) without running a heartbeat. Board or an agent of the company; unknown type: 404 adapter_not_found",
      params: AdapterTypeParams,
      body: TestEnvironmentBody,
      response: { 200: EnvironmentTestResult, ...errorResponses },
    },
    handler: (req) => s.adapterEnvironment.test(req.actor, req.params.companyId, req.params.adapterType, req.body.adapterConfig),
  });
};
