import { describe, expect, it } from 'vitest';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { responseSerializerCompiler } from '../../../main/core/http/serializer.js';
import { JsonText, jsonPage, withMembers } from '../../../main/core/kernel/json-text.js';

const Issue = z.object({
  id: z.string(),
  number: z.number().int(),
  title: z.string(),
  status: z.enum(['todo', 'done']),
  assignee: z.object({ id: z.string(), name: z.string() }).nullable(),
  labels: z.array(z.string()),
  note: z.string().optional(),
  meta: z.record(z.string(), z.unknown()),
});

const compileFor = (schema: unknown, checkResponses = false) => responseSerializerCompiler({ checkResponses })({ schema, method: 'GET', url: '/api/x' });

const issue = {
  id: 'a',
  number: 7,
  title: 'Quote " and \\ and \u2028 and é',
  status: 'todo',
  assignee: { id: 'b', name: 'Ben', secretHash: 'never written' },
  labels: ['x', 'y'],
  meta: { nested: { deep: [1, null, 'two'] } },
  deletedAt: 'never written',
};

describe('response serializer', () => {
  it('writes exactly what zod would, leaving out properties the schema does not name', () => {
    const out = compileFor(Issue)(issue);
    expect(JSON.parse(out)).toEqual(Issue.parse(issue));
    expect(out).not.toContain('never written');
  });

  it('renders null, optional and nested values as zod does', () => {
    const serialize = compileFor(Issue);
    const bare = { ...issue, assignee: null, note: 'n', labels: [] };
    expect(JSON.parse(serialize(bare))).toEqual(Issue.parse(bare));
  });

  it('keeps zod for a schema JSON Schema cannot carry exactly (a transform, a refinement)', () => {
    const Transformed = z.object({ at: z.string().transform((s) => s.toUpperCase()) });
    expect(compileFor(Transformed)({ at: 'abc' })).toBe('{"at":"ABC"}');
    const Refined = z.object({ n: z.number().refine((n) => n > 0) });
    expect(() => compileFor(Refined)({ n: -1 })).toThrow();
  });

  it('keeps zod for a string zod rewrites (trim, lower case)', () => {
    expect(compileFor(z.object({ cron: z.string().trim().toLowerCase() }))({ cron: '  0 9 * * MON ' })).toBe('{"cron":"0 9 * * mon"}');
  });

  it('writes with zod an answer the compiled serializer refuses but zod accepts', () => {
    // fast-json-stringify validates a union branch with ajv: an undefined value of an `unknown`
    // property fits zod's schema but no branch of the JSON Schema.
    const Holder = z.object({ item: z.object({ value: z.unknown(), name: z.string() }).nullable() });
    const data = { item: { value: undefined, name: 'n' } };
    expect(JSON.parse(compileFor(Holder)(data))).toEqual(JSON.parse(JSON.stringify(Holder.parse(data))));
    expect(JSON.parse(compileFor(Holder, true)(data))).toEqual({ item: { name: 'n' } });
  });

  it('accepts the { properties } shape of a described response', () => {
    expect(JSON.parse(compileFor({ description: 'ok', properties: Issue })(issue))).toEqual(Issue.parse(issue));
  });

  it('with checkResponses, an answer off its schema fails with the route named', () => {
    const serialize = compileFor(Issue, true);
    expect(JSON.parse(serialize(issue))).toEqual(Issue.parse(issue));
    for (const wrong of [{ ...issue, status: 'lost' }, { ...issue, number: '7' }]) {
      let thrown: unknown;
      try {
        serialize(wrong);
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(ResponseSerializationError);
      expect(thrown).toMatchObject({ method: 'GET', url: '/api/x' });
    }
  });

  it('without checkResponses, the compiled serializer does not validate: the suites run with the check on', () => {
    // What the check exists for: a wrong type is coerced, not refused, once the check is off.
    expect(JSON.parse(compileFor(Issue)({ ...issue, number: '7' })).number).toBe(7);
  });

  describe('an answer written as JSON already (JsonText)', () => {
    const Page = z.object({ items: z.array(Issue), nextCursor: z.string().nullable() });
    const row = JSON.stringify({ id: 'a', number: 7, title: 'T', status: 'todo', assignee: null, labels: [], meta: {} });

    it('is sent as it is', () => {
      const text = '{"items":[],"nextCursor":null}';
      expect(compileFor(Page)(new JsonText(text))).toBe(text);
      expect(compileFor(Page)(jsonPage([row, row], 'c2'))).toBe(`{"items":[${row},${row}],"nextCursor":"c2"}`);
    });

    it('with checkResponses, is checked against the schema like any other answer', () => {
      expect(compileFor(Page, true)(jsonPage([row], null))).toBe(`{"items":[${row}],"nextCursor":null}`);
      // A member the schema does not name, a wrong type, a missing field, and text that is not JSON.
      expect(() => compileFor(Page, true)(jsonPage([withMembers(row, '"secretHash":"x"')], null))).toThrow(/GET \/api\/x/);
      expect(() => compileFor(Page, true)(jsonPage([row.replace('"number":7', '"number":"7"')], null))).toThrow(ResponseSerializationError);
      expect(() => compileFor(Page, true)(jsonPage([row.replace('"status":"todo",', '')], null))).toThrow(ResponseSerializationError);
      expect(() => compileFor(Page, true)(new JsonText('{"items":[}'))).toThrow(/does not parse/);
    });

    it('members are appended to an object, empty or not', () => {
      expect(withMembers('{"a":1}', '"b":[2]')).toBe('{"a":1,"b":[2]}');
      expect(withMembers('{}', '"b":[2]')).toBe('{"b":[2]}');
    });
  });
});
