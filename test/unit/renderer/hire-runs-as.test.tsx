// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiProvider } from '../../../renderer/src/app/api-context.js';
import { createApiClient } from '../../../renderer/src/api/client.js';
import { HireRunsAs } from '../../../renderer/src/pages/approvals/HireRunsAs.js';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';

let t: TestCore | undefined;
afterEach(async () => {
  cleanup();
  await t?.close();
  t = undefined;
});

describe('the hire approval shows what the hire will run', () => {
  it('adapter, command, working directory, every env name and every secret by name', async () => {
    t = await startCore();
    const company = await createCompany(t);
    const secret = (await t.api('POST', `/api/companies/${company}/secrets`, { body: { name: 'OPENAI_KEY', value: 'sk-never-shown-here' } })).body;
    const client = createApiClient({ apiBaseUrl: t.url, token: t.boardToken });
    const config = { command: '/usr/bin/agent', args: ['--fast', 'say "hi" now'], cwd: '/work/site', env: { MODE: 'prod', OPENAI_KEY: { type: 'secret_ref', secretId: secret.id, version: 2 } } };
    const { container } = render(
      <QueryClientProvider client={new QueryClient()}>
        <ApiProvider client={client}>
          <HireRunsAs companyId={company} adapterType="process" adapterConfig={config} />
        </ApiProvider>
      </QueryClientProvider>,
    );
    const list = container.querySelector('dl')!;
    expect(list.textContent).toContain('AdapterProcess');
    expect(list.textContent).toContain(`/usr/bin/agent --fast 'say "hi" now'`);
    expect(list.textContent).toContain('/work/site');
    expect(list.textContent).toContain('MODE = prod');
    // Once in the environment, once among the secrets it receives.
    expect(await screen.findAllByText('secret OPENAI_KEY (version 2)')).toHaveLength(2);
    expect(list.textContent).toContain('Secrets it receives');
    expect(list.textContent).not.toContain('sk-never-shown-here');
  });
});
