import { describe, expect, it } from 'vitest';
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createCompany, startCore, tempHome } from '../../helpers/core.js';
import { IMAGES } from '../../fixtures/images.js';

describe('stored files at start', () => {
  it('removes files no live record owns and keeps the rest', async () => {
    const home = tempHome();
    const t = await startCore({ home });
    const companyId = await createCompany(t);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(IMAGES.png)], { type: 'image/png' }), 'logo.png');
    const logo = (await t.api('POST', `/api/companies/${companyId}/logo`, { raw: form })).body.assetId;
    await t.close();
    // What a crash could leave: a half-written upload and a file whose row was never committed.
    writeFileSync(path.join(home, 'attachments', 'deadbeef.partial'), 'x');
    writeFileSync(path.join(home, 'attachments', '00000000-0000-4000-8000-000000000000'), 'x');
    const again = await startCore({ home });
    expect(readdirSync(path.join(home, 'attachments'))).toEqual([logo]);
    const content = await again.api('GET', `/api/assets/${logo}/content`);
    expect(content.status).toBe(200);
    await again.close();
  });
});
