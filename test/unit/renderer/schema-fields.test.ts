import { describe, expect, it } from 'vitest';
import { configFromValues, ConfigFormError, fieldsOf, findConfigSchema, isPrimaryField, labelOf, valuesFromConfig, type JsonSchema } from '../../../renderer/src/forms/schema-fields.js';

/** The process adapter's schema as /api/openapi.json publishes it (input variant). */
const processSchema: JsonSchema = {
  type: 'object',
  properties: {
    command: { type: 'string', minLength: 1, maxLength: 4096 },
    args: { type: 'array', items: { type: 'string' } },
    env: { type: 'object', additionalProperties: { anyOf: [{ type: 'string' }, { $ref: '#/components/schemas/SecretRefInput' }] } },
    timeoutSec: { type: 'integer', default: 300, minimum: 1 },
    promptTemplate: { type: 'string', maxLength: 65536 },
    pty: { type: 'boolean' },
    mode: { type: 'string', enum: ['fast', 'careful'] },
    extra: { type: 'object' },
  },
  required: ['command', 'timeoutSec'],
};

describe('adapter configuration forms', () => {
  const fields = fieldsOf(processSchema);
  const byName = Object.fromEntries(fields.map((f) => [f.name, f]));

  it('derives a field kind, label and requiredness from each property', () => {
    expect(byName.command).toMatchObject({ kind: 'text', required: true, label: 'Command' });
    expect(byName.args!.kind).toBe('list');
    expect(byName.env!.kind).toBe('env');
    // a default makes a required property optional in the form: the server fills it
    expect(byName.timeoutSec).toMatchObject({ kind: 'number', integer: true, required: false, default: 300, label: 'Timeout (s)' });
    expect(byName.promptTemplate!.kind).toBe('longtext');
    expect(byName.pty!.kind).toBe('boolean');
    expect(byName.mode).toMatchObject({ kind: 'enum', options: ['fast', 'careful'] });
    expect(byName.extra!.kind).toBe('json');
    expect(fields.filter(isPrimaryField).map((f) => f.name)).toEqual(['command', 'args', 'mode', 'timeoutSec', 'env']);
  });

  it('round-trips a configuration with plain and secret environment values', () => {
    const config = {
      command: '/usr/bin/node',
      args: ['agent.mjs', '--fast'],
      env: { LOG: 'debug', API_KEY: { type: 'secret_ref', secretId: '6f1c2d3e-0000-4000-8000-000000000001', version: 2 } },
      timeoutSec: 60,
      pty: true,
      extra: { a: [1] },
    };
    const values = valuesFromConfig(fields, config);
    expect(values.args).toBe('agent.mjs\n--fast');
    expect(configFromValues(fields, values)).toEqual(config);
  });

  it('leaves empty optional fields out and reports bad input at its field', () => {
    const values = valuesFromConfig(fields, {});
    values.command = ' node ';
    expect(configFromValues(fields, values)).toEqual({ command: 'node' });
    expect(() => configFromValues(fields, { ...values, command: '' })).toThrow(new ConfigFormError('command', 'Command is required'));
    const bad = (() => {
      try {
        configFromValues(fields, { ...values, timeoutSec: '1.5' });
      } catch (e) {
        return e as ConfigFormError;
      }
    })();
    expect(bad).toMatchObject({ field: 'timeoutSec', message: 'Timeout (s) must be a whole number' });
    expect(() => configFromValues(fields, { ...values, extra: '{nope' })).toThrow(/valid JSON/);
    expect(() => configFromValues(fields, { ...values, env: [{ name: 'K', mode: 'secret', value: '', secretId: '', version: 'latest' }] })).toThrow(/choose a secret/);
  });

  it('finds an adapter schema among the OpenAPI components by its type key, preferring the input variant', () => {
    const components = { VendorALocalAdapterConfig: { type: 'object' }, VendorALocalAdapterConfigInput: { type: 'object', required: ['x'] } } as Record<string, JsonSchema>;
    expect(findConfigSchema(components, 'vendor_a_local')).toBe(components.VendorALocalAdapterConfigInput);
    expect(findConfigSchema(components, 'http')).toBeNull();
    expect(labelOf('graceMs')).toBe('Grace (ms)');
  });
});
