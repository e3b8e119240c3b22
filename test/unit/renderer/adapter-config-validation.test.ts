import { describe, expect, it } from 'vitest';
import { createBuiltinRegistry } from '../../../adapters/registry.js';
import { adapterConfigJsonSchema } from '../../../main/core/plugins/config-schema.js';
import { fieldsOf, isPrimaryField, type JsonSchema } from '../../../renderer/src/forms/schema-fields.js';
import { serverFieldErrors, validateConfig } from '../../../renderer/src/forms/validate-config.js';

const registry = createBuiltinRegistry();
const schemaOf = (type: string) => adapterConfigJsonSchema(registry, type) as JsonSchema;

describe('the agent setup form generated from an adapter config schema', () => {
  it('every built-in publishes a schema with its properties at the top, so no adapter needs the JSON box', () => {
    for (const a of registry.list()) expect(Object.keys(schemaOf(a.type).properties ?? {}).length, a.type).toBeGreaterThan(0);
  });

  it('Claude Code: model, permission mode, tools, folder, timeout, extra args and env up front; env takes secret references', () => {
    const fields = fieldsOf(schemaOf('vendor_a_local'));
    expect(fields.filter(isPrimaryField).map((f) => [f.name, f.kind])).toEqual([
      ['model', 'text'],
      ['permissionMode', 'enum'],
      ['allowedTools', 'list'],
      ['disallowedTools', 'list'],
      ['cwd', 'text'],
      ['timeoutSec', 'number'],
      ['extraArgs', 'list'],
      ['env', 'env'],
    ]);
    expect(fields.find((f) => f.name === 'cwd')?.label).toBe('Working folder');
    // Codex's reasoning effort is a choice right after the model.
    expect(fieldsOf(schemaOf('vendor_b_local')).filter(isPrimaryField).slice(0, 2).map((f) => [f.name, f.kind])).toEqual([
      ['model', 'text'],
      ['reasoningEffort', 'enum'],
    ]);
  });

  it('names a wrong value at its field before any request, from the schema alone', () => {
    const schema = schemaOf('vendor_a_local');
    expect(validateConfig(schema, { model: 'sonnet', timeoutSec: 300, env: { KEY: { type: 'secret_ref', secretId: '0f8fad5b-d9cb-469f-a165-70867728950e', version: 'latest' } } })).toEqual({});
    const errors = validateConfig(schema, { timeoutSec: 0, permissionMode: 'yolo', env: { '1BAD': 'x' }, surprise: true });
    expect(Object.keys(errors).sort()).toEqual(['__json', 'env', 'permissionMode', 'timeoutSec']);
    expect(errors.__json).toContain('surprise');
  });

  it('places the server 400 problems at their fields (an adapterConfig path), ignoring the others', () => {
    const err = {
      status: 400,
      details: {
        problems: [
          { location: 'body', path: 'body.adapterConfig.cwd', message: 'must be an absolute path' },
          { location: 'body', path: 'body.adapterConfig.env.KEY', message: 'secret not found' },
          { location: 'body', path: 'body.adapterConfig', message: 'unknown field' },
          { location: 'body', path: 'body.name', message: 'required' },
        ],
      },
    };
    expect(serverFieldErrors(err)).toEqual({ cwd: 'must be an absolute path', env: 'KEY: secret not found', __json: 'unknown field' });
    expect(serverFieldErrors(new Error('network'))).toEqual({});
  });
});
