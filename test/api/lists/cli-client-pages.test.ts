import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { createClient } from '../../../main/cli/client.js';

// The CLI (agent names, the demo's free company name) reads lists the API answers one page at a
// time: it must follow every page, not stop at the first.

let t: TestCore;
beforeAll(async () => {
  t = await startCore({ heartbeats: false });
  for (const name of ['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon']) await createCompany(t, name);
});
afterAll(async () => t?.close());

describe('the CLI client', () => {
  it('reads every page of a paged list, in order, none twice', async () => {
    const client = createClient({ url: t.url, token: t.boardToken });
    const whole = (await t.api('GET', '/api/companies')).body as { id: string }[];
    expect(whole).toHaveLength(5);
    const first = await t.api('GET', '/api/companies?limit=2');
    expect(first.headers.get('x-next-cursor')).not.toBeNull();
    const paged = await client.all<{ id: string }>('/api/companies', 2);
    expect(paged.map((c) => c.id)).toEqual(whole.map((c) => c.id));
    // A query of its own is kept on every page.
    const archived = await client.all<{ id: string }>('/api/companies?includeArchived=true', 2);
    expect(archived.map((c) => c.id)).toEqual(whole.map((c) => c.id));
  });

  it('reports a refused list as the API error', async () => {
    const client = createClient({ url: t.url, token: 'hcb_not-the-token' });
    await expect(client.all('/api/companies')).rejects.toMatchObject({ status: 401 });
  });
});
