import { z } from 'zod';
import type { AdapterRegistry } from '../../../adapters/registry.js';
import { ServiceError } from '../kernel/errors.js';

type JsonObject = Record<string, unknown>;

/**
 * The JSON Schema of an adapter type's `adapterConfig`, as the board generates its form from it:
 * the input side (defaults optional), the root definition inlined so `properties` sit at the top,
 * shared definitions (the secret reference) kept under `$defs`. A plugin's validator is the common
 * keys piped into its own schema: the plugin's own schema is the one worth a form.
 */
export function adapterConfigJsonSchema(registry: AdapterRegistry, type: string): JsonObject {
  const adapter = registry.get(type);
  if (!adapter) throw new ServiceError(404, 'adapter_not_found', `No adapter of type "${type}" is installed`);
  const schema = adapter.configSchema instanceof z.ZodPipe ? (adapter.configSchema.def.out as z.ZodType) : adapter.configSchema;
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonObject & { $ref?: string; $defs?: Record<string, JsonObject> };
  const root = /^#\/\$defs\/(.+)$/.exec(json.$ref ?? '')?.[1];
  if (!root || !json.$defs?.[root]) return json;
  const { [root]: body, ...rest } = json.$defs;
  return { $schema: json.$schema, ...body, ...(Object.keys(rest).length ? { $defs: rest } : {}) };
}
