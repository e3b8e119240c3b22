import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { createIssue } from './helpers.js';

let t: TestCore;
let companyId: string;
beforeEach(async () => {
  t = await startCore({ heartbeats: false, routines: false, sequences: false });
  companyId = await createCompany(t);
});
afterEach(() => t.close());

const label = async (name: string, color = '#AA3300') => {
  const res = await t.api('POST', `/api/companies/${companyId}/labels`, { body: { name, color } });
  if (res.status !== 201) throw new Error(res.text);
  return res.body;
};

describe('labels', () => {
  it('CRUD with unique names per company and validated colors', async () => {
    const bug = await label('bug');
    expect(bug).toMatchObject({ name: 'bug', color: '#aa3300' });
    expect((await t.api('POST', `/api/companies/${companyId}/labels`, { body: { name: 'bug', color: '#000000' } })).body.code).toBe('label_exists');
    expect((await t.api('POST', `/api/companies/${companyId}/labels`, { body: { name: 'x', color: 'red' } })).status).toBe(400);
    const renamed = await t.api('PATCH', `/api/labels/${bug.id}`, { body: { name: 'defect' } });
    expect(renamed.body.name).toBe('defect');
    expect((await t.api('GET', `/api/companies/${companyId}/labels`)).body.map((l: any) => l.name)).toEqual(['defect']);
    expect((await t.api('DELETE', `/api/labels/${bug.id}`)).status).toBe(204);
    expect((await t.api('GET', `/api/companies/${companyId}/labels`)).body).toEqual([]);
  });

  it('labelIds on create and PATCH, ?labelId= filter, deleting a label takes it off issues', async () => {
    const bug = await label('bug');
    const ui = await label('ui', '#0055ff');
    const one = await createIssue(t, companyId, { title: 'One', labelIds: [bug.id, ui.id] });
    expect(one.labelIds.sort()).toEqual([bug.id, ui.id].sort());
    const two = await createIssue(t, companyId, { title: 'Two' });
    const patched = await t.api('PATCH', `/api/issues/${two.id}`, { body: { labelIds: [ui.id] } });
    expect(patched.body.labelIds).toEqual([ui.id]);
    const byBug = await t.api('GET', `/api/companies/${companyId}/issues?labelId=${bug.id}`);
    expect(byBug.body.items.map((i: any) => i.title)).toEqual(['One']);
    const byUi = await t.api('GET', `/api/companies/${companyId}/issues?labelId=${ui.id}`);
    expect(byUi.body.items.map((i: any) => i.title).sort()).toEqual(['One', 'Two']);
    await t.api('DELETE', `/api/labels/${ui.id}`);
    expect((await t.api('GET', `/api/issues/${one.id}`)).body.labelIds).toEqual([bug.id]);
    const activity = (await t.api('GET', `/api/companies/${companyId}/activity?limit=50`)).body.items.map((a: any) => a.action);
    expect(activity).toEqual(expect.arrayContaining(['label.created', 'label.deleted', 'issue.labels_changed']));
  });

  it('a label of another company is refused and nothing is written', async () => {
    const other = await createCompany(t, 'Other');
    const foreign = (await t.api('POST', `/api/companies/${other}/labels`, { body: { name: 'x', color: '#000000' } })).body;
    const before = t.snapshot();
    const res = await t.api('POST', `/api/companies/${companyId}/issues`, { body: { title: 'x', labelIds: [foreign.id] } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_label');
    expect(t.snapshot()).toEqual(before);
  });
});
