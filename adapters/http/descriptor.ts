import { z } from 'zod';
import type { AdapterDescriptor } from '@service/adapter-utils';
import { EnvValue, TimeoutSec } from '@service/adapter-utils/config';
import { executeHttp, testHttpEnvironment } from './execute.js';

const HttpUrl = z
  .url()
  .max(4096)
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http or https URL');

export const HttpAdapterConfig = z
  .strictObject({
    url: HttpUrl,
    method: z.enum(['POST', 'PUT']).default('POST'),
    /** Header values may be secret references, resolved at send time. */
    headers: z
      .record(z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/, 'must be a valid header name'), EnvValue)
      .optional(),
    timeoutSec: TimeoutSec.default(30),
    promptTemplate: z.string().max(65_536).optional(),
  })
  .meta({ id: 'HttpAdapterConfig' });

export const httpAdapter: AdapterDescriptor = {
  type: 'http',
  label: 'HTTP webhook',
  models: [],
  configSchema: HttpAdapterConfig,
  remote: true,
  execute: executeHttp,
  testEnvironment: testHttpEnvironment,
  agentConfigurationDoc: `# http adapter

Sends a webhook to an external agent at every heartbeat: the run context and a run token in a
JSON payload. A 2xx answer counts as success; the response is recorded with the run.

**Use when** the agent runs as a service elsewhere (another machine, a hosted runtime) and can call
back into the Headcount API with the run token.

**Do not use when** the agent is a CLI on this computer (use its local adapter or \`process\`).

Configuration: \`url\` (required), \`method\` (POST or PUT), \`headers\` (values or secret
references), \`timeoutSec\` (default 30), \`promptTemplate\`.
`,
};
