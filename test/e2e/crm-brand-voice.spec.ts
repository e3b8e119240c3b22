import { createHash } from 'node:crypto';
import { test, expect, shot } from './fixtures.js';

/** CRM → Brand voice: the board writes the guide in the form; a draft breaking it gets the findings, no model needed. */
test('crm: the brand-voice guide form drives the built-in check', async ({ signedIn: page, board }) => {
  const { id: cid } = await board.api<{ id: string }>('POST', '/api/companies', { name: 'Voice Co' });
  await page.goto(`${board.url}/#/crm?tab=brand-voice`);
  await page.reload();
  const form = page.getByRole('form', { name: 'Brand-voice guide' });
  await expect(form).toBeVisible();
  await form.getByLabel('Tone notes').fill('Calm, plain, specific.');
  await form.getByLabel('Banned phrases').fill('game changer\nrevolutionary');
  await form.getByLabel('Required claims').fill('SOC 2 certified');
  await form.getByLabel('Maximum length').fill('280');
  await shot(page, 'crm-brand-voice-guide');
  await form.getByRole('button', { name: 'Save guide' }).click();
  await expect(page.getByText('Brand-voice guide saved')).toBeVisible();

  const guide = await board.api<{ bannedPhrases: string[]; requiredClaims: string[]; maxLength: number | null; modelCheck: unknown }>('GET', `/api/companies/${cid}/crm/brand-voice/guide`);
  expect(guide).toMatchObject({ bannedPhrases: ['game changer', 'revolutionary'], requiredClaims: ['SOC 2 certified'], maxLength: 280, modelCheck: null });
  const draft = 'A revolutionary backup tool.';
  const res = await board.api<{ verdict: string; findings: { message: string }[] }>('POST', `/api/companies/${cid}/crm/brand-voice/check`, {
    contentSha256: createHash('sha256').update(draft).digest('hex'),
    draft,
  });
  expect(res.verdict).toBe('needs_revision');
  expect(res.findings.map((f) => f.message)).toEqual(['Uses the banned phrase "revolutionary"; remove or reword it', 'Does not state the required claim "SOC 2 certified"']);
});
