/**
 * Adapter configuration forms are generated from the adapter's JSON Schema (the zod
 * `configSchema` as /api/openapi.json publishes it). This module turns a schema into field
 * descriptions and converts between form values (strings, booleans, env rows) and the config object.
 */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  anyOf?: JsonSchema[];
  additionalProperties?: boolean | JsonSchema;
  $ref?: string;
  const?: unknown;
  minLength?: number;
  /** JSON Schema has more keywords than the form uses; they pass through untouched. */
  [keyword: string]: unknown;
}

export type FieldKind = 'text' | 'longtext' | 'number' | 'boolean' | 'enum' | 'list' | 'env' | 'json';

export interface FieldSpec {
  name: string;
  kind: FieldKind;
  required: boolean;
  label: string;
  description?: string;
  default?: unknown;
  options?: string[];
  integer?: boolean;
  minimum?: number;
  maximum?: number;
}

export interface EnvRow {
  name: string;
  /** Plain value, or the id of a company secret. */
  mode: 'plain' | 'secret';
  value: string;
  secretId: string;
  /** 'latest' or a version number as text. */
  version: string;
}

export type FieldValue = string | boolean | EnvRow[];
export type FormValues = Record<string, FieldValue>;

/** Names a founder reads better than their key. */
const LABELS: Readonly<Record<string, string>> = { cwd: 'Working folder', env: 'Environment', extraArgs: 'Extra arguments' };

/** `promptTemplate` → "Prompt template", `timeoutSec` → "Timeout (s)". */
export function labelOf(name: string): string {
  const known = LABELS[name];
  if (known) return known;
  const units: Record<string, string> = { Sec: ' (s)', Ms: ' (ms)' };
  let unit = '';
  for (const [suffix, text] of Object.entries(units)) {
    if (name.endsWith(suffix) && name.length > suffix.length) {
      name = name.slice(0, -suffix.length);
      unit = text;
    }
  }
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1) + unit;
}

const typeOf = (s: JsonSchema): string | undefined => (Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type);

const isSecretRefUnion = (s: JsonSchema | boolean | undefined): boolean =>
  typeof s === 'object' && !!s.anyOf?.some((x) => /\/SecretRef(Input)?$/.test(x.$ref ?? '') || x.properties?.type?.const === 'secret_ref');

/**
 * The order a founder sets an agent up in: what runs, which model and how hard it thinks, what it may do,
 * where it works and for how long, then the rest in the schema's order.
 */
const FIELD_ORDER = ['command', 'args', 'url', 'model', 'provider', 'reasoningEffort', 'thinking', 'variant', 'permissionMode', 'approvalMode', 'mode', 'sandbox', 'allowedTools', 'disallowedTools', 'tools', 'cwd', 'timeoutSec', 'extraArgs', 'env'];
const rank = (name: string) => {
  const i = FIELD_ORDER.indexOf(name);
  return i < 0 ? FIELD_ORDER.length : i;
};

export function fieldsOf(schema: JsonSchema): FieldSpec[] {
  const required = new Set(schema.required ?? []);
  const entries = Object.entries(schema.properties ?? {});
  // A stable sort: fields outside FIELD_ORDER keep the schema's order after the known ones.
  return entries.sort(([a], [b]) => rank(a) - rank(b)).map(([name, prop]) => {
    const base = {
      name,
      required: required.has(name) && prop.default === undefined,
      label: labelOf(name),
      ...(prop.description ? { description: prop.description } : {}),
      ...(prop.default !== undefined ? { default: prop.default } : {}),
    };
    const t = typeOf(prop);
    if (name === 'env' && t === 'object' && isSecretRefUnion(prop.additionalProperties)) return { ...base, kind: 'env' };
    if (prop.enum && prop.enum.every((v) => typeof v === 'string')) return { ...base, kind: 'enum', options: prop.enum as string[] };
    if (t === 'string') return { ...base, kind: (prop.maxLength ?? 0) > 4096 || /prompt|instructions/i.test(name) ? 'longtext' : 'text' };
    if (t === 'integer' || t === 'number') {
      return { ...base, kind: 'number', integer: t === 'integer', ...(prop.minimum !== undefined ? { minimum: prop.minimum } : {}), ...(prop.maximum !== undefined ? { maximum: prop.maximum } : {}) };
    }
    if (t === 'boolean') return { ...base, kind: 'boolean' };
    if (t === 'array' && prop.items && typeOf(prop.items) === 'string') return { ...base, kind: 'list' };
    return { ...base, kind: 'json' };
  });
}

/** Where the agent works and how long a heartbeat may take: set on most agents, so shown up front. */
const PRIMARY_NAMES = new Set(['model', 'cwd', 'timeoutSec']);

/** Fields shown up front: what must be filled in, lists, choices, the environment, the model, folder and timeout; the rest go under "More settings". */
export const isPrimaryField = (f: FieldSpec): boolean => f.required || f.kind === 'list' || f.kind === 'enum' || f.kind === 'env' || PRIMARY_NAMES.has(f.name);

/** Form values for an existing configuration (or the empty form when `config` is empty). */
export function valuesFromConfig(fields: readonly FieldSpec[], config: Record<string, unknown>): FormValues {
  const values: FormValues = {};
  for (const f of fields) {
    const v = config[f.name];
    switch (f.kind) {
      case 'boolean':
        values[f.name] = typeof v === 'boolean' ? v : f.default === true;
        break;
      case 'list':
        values[f.name] = Array.isArray(v) ? v.map(String).join('\n') : '';
        break;
      case 'env':
        values[f.name] = Object.entries((v ?? {}) as Record<string, unknown>).map(([name, val]): EnvRow => {
          if (val && typeof val === 'object' && (val as { type?: string }).type === 'secret_ref') {
            const ref = val as { secretId: string; version?: number | 'latest' };
            return { name, mode: 'secret', value: '', secretId: ref.secretId, version: String(ref.version ?? 'latest') };
          }
          return { name, mode: 'plain', value: String(val ?? ''), secretId: '', version: 'latest' };
        });
        break;
      case 'json':
        values[f.name] = v === undefined ? '' : JSON.stringify(v, null, 2);
        break;
      default:
        values[f.name] = v === undefined || v === null ? '' : String(v);
    }
  }
  return values;
}

export class ConfigFormError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The configuration object of form values. Empty optional fields are left out (the server fills
 * defaults); numbers and JSON are parsed here so a typo is reported at its field before any request.
 */
export function configFromValues(fields: readonly FieldSpec[], values: FormValues, base: Record<string, unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const f of fields) {
    const v = values[f.name];
    delete out[f.name];
    if (f.kind === 'boolean') {
      if (v === true || (v === false && f.default === true)) out[f.name] = v;
      continue;
    }
    if (f.kind === 'env') {
      const rows = (Array.isArray(v) ? v : []).filter((r) => r.name.trim() !== '');
      if (rows.length === 0) continue;
      const env: Record<string, unknown> = {};
      for (const r of rows) {
        if (r.mode === 'secret') {
          if (!r.secretId) throw new ConfigFormError(f.name, `${r.name}: choose a secret`);
          env[r.name.trim()] = { type: 'secret_ref', secretId: r.secretId, version: r.version === 'latest' || !r.version ? 'latest' : Number(r.version) };
        } else env[r.name.trim()] = r.value;
      }
      out[f.name] = env;
      continue;
    }
    const text = typeof v === 'string' ? v.trim() : '';
    if (text === '') {
      if (f.required) throw new ConfigFormError(f.name, `${f.label} is required`);
      continue;
    }
    if (f.kind === 'number') {
      const n = Number(text);
      if (!Number.isFinite(n) || (f.integer && !Number.isInteger(n))) throw new ConfigFormError(f.name, `${f.label} must be ${f.integer ? 'a whole number' : 'a number'}`);
      out[f.name] = n;
    } else if (f.kind === 'list') {
      out[f.name] = (v as string).split('\n').map((s) => s.trim()).filter((s) => s !== '');
    } else if (f.kind === 'json') {
      try {
        out[f.name] = JSON.parse(text);
      } catch {
        throw new ConfigFormError(f.name, `${f.label} must be valid JSON`);
      }
    } else out[f.name] = f.kind === 'longtext' ? (v as string) : text;
  }
  return out;
}

/** `claude_local` → `ClaudeLocal`: the naming of adapter config schemas in the OpenAPI components. */
export const pascalOf = (type: string) => type.split('_').map((p) => p.charAt(0).toUpperCase() + p.slice(1)).join('');

/** The adapter's config schema among the OpenAPI components (the input variant when there is one). */
export function findConfigSchema(components: Record<string, JsonSchema>, adapterType: string): JsonSchema | null {
  const name = `${pascalOf(adapterType)}AdapterConfig`;
  return components[`${name}Input`] ?? components[name] ?? null;
}
