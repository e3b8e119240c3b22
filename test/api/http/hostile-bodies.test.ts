import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { JSON_BODY_LIMIT } from '../../../main/core/http/server.js';
import { MAX_JSON_DEPTH } from '../../../main/core/http/json-body.js';

// Issue #14.8: bodies too deep, too large or malformed answer 400/413 in the error contract, and
// names cannot carry text that is silently changed or that makes two names look the same.
let t: TestCore;
let companyId: string;
beforeAll(async () => {
  t = await startCore();
  companyId = await createCompany(t);
});
afterAll(async () => {
  await t.close();
});

const expectContract = (body: any, code: string) => {
  expect(body).toEqual(expect.objectContaining({ code, error: expect.any(String) }));
  expect(Object.keys(body).every((k) => ['error', 'code', 'details'].includes(k))).toBe(true);
};
const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const json = (raw: string | Buffer) => ({ raw, contentType: 'application/json' });

describe('bodies', () => {
  it('refuses a 5,000-deep body with 400 body_too_deep on every route, writing nothing', async () => {
    const before = t.snapshot();
    const routes: [string, string, string][] = [
      // Both answered 500 (a validator's stack overflowed) before the depth limit.
      ['POST', `/api/companies/${companyId}/crm/content-pieces`, `{"title":"t","summary":"s","sourcePath":"a.md","frontmatter":${nested(5000)}}`],
      ['POST', `/api/companies/${companyId}/crm/outboxes`, `{"channel":"dry-run","config":${nested(5000)}}`],
      ['POST', '/api/companies', '['.repeat(5000) + ']'.repeat(5000)],
      ['POST', '/api/companies', `{"name":"x","description":"${'['.repeat(5000)}"}`.replace('"x"', nested(MAX_JSON_DEPTH))],
    ];
    for (const [method, path, raw] of routes) {
      const res = await t.api(method, path, json(raw));
      expect(res.status, path).toBe(400);
      expectContract(res.body, 'body_too_deep');
      expect(res.body.details).toEqual({ maxDepth: MAX_JSON_DEPTH });
    }
    expect(t.snapshot()).toEqual(before);
  });

  it('counts brackets inside strings as text, and accepts nesting up to the limit', async () => {
    const frontmatter = nested(MAX_JSON_DEPTH - 1);
    const res = await t.api('POST', `/api/companies/${companyId}/crm/content-pieces`, json(`{"title":"[[[{{{ \\" [[[","summary":"s","sourcePath":"deep.md","sourceSha256":"${"a".repeat(64)}","frontmatter":${frontmatter}}`));
    expect(res.status, res.text).toBe(201);
    expect(res.body.title).toBe('[[[{{{ " [[[');
  });

  it('answers 413 above the size limit and 400 to malformed JSON and to bytes that are not UTF-8', async () => {
    const big = await t.api('POST', '/api/companies', json(JSON.stringify({ name: 'x', description: 'a'.repeat(JSON_BODY_LIMIT) })));
    expect(big.status).toBe(413);
    expectContract(big.body, 'payload_too_large');
    for (const raw of ['{"name":', '{"name":"x",}', "{'name':'x'}"]) {
      const res = await t.api('POST', '/api/companies', json(raw));
      expect(res.status, raw).toBe(400);
      expectContract(res.body, 'invalid_json');
    }
    // A byte that is not UTF-8 used to be stored as U+FFFD without a word.
    const latin1 = await t.api('POST', '/api/companies', json(Buffer.concat([Buffer.from('{"name":"Caf'), Buffer.from([0xe9]), Buffer.from('"}')])));
    expect(latin1.status).toBe(400);
    expectContract(latin1.body, 'invalid_json');
    const poisoned = await t.api('POST', '/api/companies', json('{"name":"x","__proto__":{"admin":true}}'));
    expect(poisoned.status).toBe(400);
  });

  it('refuses lone surrogates anywhere in a body, naming the field, instead of storing U+FFFD', async () => {
    const before = t.snapshot();
    const cases: [string, string, unknown, string][] = [
      ['POST', '/api/companies', { name: 'Acme\uD800' }, 'body.name'],
      ['POST', `/api/companies/${companyId}/issues`, { title: 'Fix \uDC00 now' }, 'body.title'],
      ['POST', `/api/companies/${companyId}/issues`, { title: 'ok', description: 'tail \uD83D' }, 'body.description'],
      ['POST', `/api/companies/${companyId}/agents`, { name: 'Bo', adapterType: 'process', adapterConfig: { command: 'echo', env: { ['K\uD800']: 'v' } } }, 'body.adapterConfig.env.K\uD800'],
    ];
    for (const [method, path, body, field] of cases) {
      const res = await t.api(method, path, { body });
      expect(res.status, field).toBe(400);
      expectContract(res.body, 'validation_error');
      expect(res.body.details.problems[0].path).toBe(field);
    }
    expect(t.snapshot()).toEqual(before);
    // A surrogate pair (an emoji) is ordinary text.
    const emoji = await t.api('POST', `/api/companies/${companyId}/issues`, { body: { title: 'Ship it 🚀' } });
    expect(emoji.status).toBe(201);
    expect(emoji.body.title).toBe('Ship it 🚀');
  });
});

describe('names', () => {
  it('refuses invisible, control and bidi characters in names', async () => {
    const before = t.snapshot();
    for (const name of ['Ana\u202E', 'Ana\u200B', '\u2066Ana\u2069', 'A\u200Dna', 'Ana\tLee', '\u3164', 'Ana\uFEFF Lee']) {
      const res = await t.api('POST', `/api/companies/${companyId}/agents`, { body: { name, adapterType: 'process', adapterConfig: { command: 'echo' } } });
      expect(res.status, JSON.stringify(name)).toBe(400);
      expectContract(res.body, 'validation_error');
      expect(res.body.error).toMatch(/^body\.name: .*invisible, control or bidi/);
    }
    for (const [path, field] of [['/api/companies', 'name'], [`/api/companies/${companyId}/projects`, 'name'], [`/api/companies/${companyId}/goals`, 'title']] as const) {
      const res = await t.api('POST', path, { body: { [field]: 'Launch\u202Eyalp' } });
      expect(res.status, path).toBe(400);
      expect(res.body.details.problems[0].path).toBe(`body.${field}`);
    }
    // Titles keep marks and joiners that scripts need, but not controls that reorder the text.
    const reordered = await t.api('POST', `/api/companies/${companyId}/issues`, { body: { title: 'Pay \u202Eeciovni\u202C' } });
    expect(reordered.status).toBe(400);
    expect(reordered.body.details.problems[0].path).toBe('body.title');
    expect(t.snapshot()).toEqual(before);
  });

  it('stores names in NFC with plain spaces, so look-alikes collide', async () => {
    const decomposed = await createAgent(t, companyId, { name: 'Jose\u0301  Lee' });
    expect(decomposed.name).toBe('Jos\u00E9 Lee');
    const twin = await t.api('POST', `/api/companies/${companyId}/agents`, { body: { name: 'Jos\u00E9\u00A0Lee', adapterType: 'process', adapterConfig: { command: 'echo' } } });
    expect(twin.status).toBe(409);
    expect(twin.body.code).toBe('agent_name_taken');
    const company = await t.api('POST', '/api/companies', { body: { name: 'Cafe\u0301' } });
    expect(company.body.name).toBe('Caf\u00E9');
    const issue = await t.api('POST', `/api/companies/${companyId}/issues`, { body: { title: 'Re\u0301sume\u0301' } });
    expect(issue.body.title).toBe('R\u00E9sum\u00E9');
    // An emoji sequence joined by U+200D is one picture, not a disguise.
    const coder = await createAgent(t, companyId, { name: '👩‍💻 Coder' });
    expect(coder.name).toBe('👩‍💻 Coder');
  });

  it('makes "Ana" and "Ana\\u200B" impossible as two agents', async () => {
    await createAgent(t, companyId, { name: 'Ana' });
    for (const name of ['Ana\u200B', '\u200BAna', 'An\u200Ca']) {
      const res = await t.api('POST', `/api/companies/${companyId}/agents`, { body: { name, adapterType: 'process', adapterConfig: { command: 'echo' } } });
      expect(res.status).toBe(400);
    }
    const ana = (await t.api('GET', `/api/companies/${companyId}/agents`)).body.filter((a: { name: string }) => a.name.startsWith('Ana') || a.name.includes('Ana'));
    expect(ana.map((a: { name: string }) => a.name)).toEqual(['Ana']);
    // Renaming onto a look-alike is refused the same way.
    const other = await createAgent(t, companyId, { name: 'Bea' });
    const rename = await t.api('PATCH', `/api/agents/${other.id}`, { body: { name: 'Ana\u2060' } });
    expect(rename.status).toBe(400);
  });
});
