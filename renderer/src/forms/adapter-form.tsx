import { useCallback, useEffect, useMemo, useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useApi } from '../app/api-context.js';
import { keys } from '../api/keys.js';
import type { Secret } from '../api/types.js';
import { Button } from '../components/Button.js';
import { Checkbox, Input, Select, Textarea } from '../components/Field.js';
import { Pill } from '../components/Pill.js';
import { readinessSummary, type EnvironmentTestResult } from './readiness.js';
import { configFromValues, ConfigFormError, fieldsOf, isPrimaryField, valuesFromConfig, type EnvRow, type FieldSpec, type FormValues, type JsonSchema } from './schema-fields.js';
import { serverFieldErrors, validateConfig, type FieldErrors } from './validate-config.js';
import { allArrayPages } from '../api/array-pages.js';

/** An entry of GET /api/adapters (main/core/plugins/contract.ts). */
export interface AdapterInfo {
  type: string;
  label: string;
  source: 'builtin' | 'plugin';
  status: 'loaded' | 'error';
  error?: string;
  experimental?: boolean;
}

export type { EnvironmentCheck, EnvironmentTestResult } from './readiness.js';
export { readinessSummary } from './readiness.js';

/** Installed adapters; null when this server has no adapters route (older core): the form then offers the built-ins. */
export function useAdapters() {
  const api = useApi();
  return useQuery({
    queryKey: keys.adapters(),
    queryFn: async () => {
      try {
        return await api.get<AdapterInfo[]>('/api/adapters');
      } catch (err) {
        if ((err as { status?: number }).status === 404) return null;
        throw err;
      }
    },
  });
}

export const BUILTIN_FALLBACK: AdapterInfo[] = [
  { type: 'process', label: 'Process', source: 'builtin', status: 'loaded' },
  { type: 'http', label: 'HTTP', source: 'builtin', status: 'loaded' },
];

/** The adapter's configuration schema (`GET /api/adapters/{type}/config-schema`); null when it has none. */
export function useConfigSchema(adapterType: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['adapters', adapterType, 'config-schema'],
    staleTime: Infinity,
    queryFn: async () => {
      try {
        return (await api.get<{ schema: JsonSchema }>(`/api/adapters/${adapterType}/config-schema`)).schema;
      } catch (err) {
        if ((err as { status?: number }).status === 404) return null;
        throw err;
      }
    },
  });
}

/** The form value of the per-agent sandbox switch (`adapterConfig.sandbox`, default on). */
export const SANDBOX_FIELD = '__sandbox';
/** The key of the raw JSON editor in `errors`. */
export const JSON_KEY = '__json';

/** The core's confinement keys: valid for every adapter, absent from its own schema. */
const CONFINEMENT_KEYS = ['sandbox', 'inheritEnv', 'networkAllowlist'] as const;

export interface AdapterForm {
  adapterType: string;
  fields: FieldSpec[];
  values: FormValues;
  set(name: string, value: FormValues[string]): void;
  /** Problems by field name (`__json` for the JSON editor), from the schema or the server's 400. */
  errors: FieldErrors;
  /** The configuration, or throws ConfigFormError after putting the problems in `errors`. */
  build(): Record<string, unknown>;
  /** Places a 400's field problems next to their fields; false when the error names none. */
  showServerError(err: unknown): boolean;
  ready: boolean;
  /** No schema is published: the JSON editor is the only way to configure. */
  jsonOnly: boolean;
  jsonOpen: boolean;
  setJsonOpen(open: boolean): void;
  jsonText: string;
  setJsonText(text: string): void;
}

const pretty = (v: unknown) => JSON.stringify(v, null, 2);

/**
 * The state of an adapter configuration form: field values generated from the adapter's schema,
 * and the same configuration as raw JSON behind "Advanced". Both stay in sync: a field edit
 * rewrites the JSON, a JSON edit that parses refills the fields. Keys the form has no field for
 * (confinement settings set through the API) ride along untouched.
 */
export function useAdapterForm(adapterType: string, initial: Record<string, unknown> = {}): AdapterForm {
  const schemaQuery = useConfigSchema(adapterType);
  const schema = schemaQuery.data ?? null;
  const fields = useMemo(() => (schema ? fieldsOf(schema) : []), [schema]);
  const [values, setValues] = useState<FormValues>({});
  const [extras, setExtras] = useState<Record<string, unknown>>({});
  const [errors, setErrors] = useState<FieldErrors>({});
  const [jsonOpen, setJsonOpenState] = useState(false);
  const [jsonText, setJsonTextState] = useState('{}');

  const split = useCallback(
    (config: Record<string, unknown>) => {
      const own = new Set(fields.map((f) => f.name));
      return {
        values: { ...valuesFromConfig(fields, config), [SANDBOX_FIELD]: config.sandbox !== false },
        extras: Object.fromEntries(Object.entries(config).filter(([k]) => !own.has(k) && k !== 'sandbox')),
      };
    },
    [fields],
  );
  const compose = (v: FormValues, x: Record<string, unknown>) => ({ ...configFromValues(fields, v, x), ...(v[SANDBOX_FIELD] === false ? { sandbox: false } : {}) });

  const initialKey = JSON.stringify(initial);
  useEffect(() => {
    const start = JSON.parse(initialKey) as Record<string, unknown>;
    const parts = split(start);
    setValues(parts.values);
    setExtras(parts.extras);
    setJsonTextState(pretty(start));
    setErrors({});
    // `initial` is compared by value (initialKey): a parent passing a fresh object each render must not reset the form.
  }, [split, initialKey]);

  const jsonOnly = schemaQuery.isFetched && !schema;
  const parseJson = (text: string): Record<string, unknown> => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text || '{}');
    } catch {
      throw new ConfigFormError(JSON_KEY, 'Not valid JSON');
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ConfigFormError(JSON_KEY, 'The configuration must be a JSON object');
    return parsed as Record<string, unknown>;
  };

  return {
    adapterType,
    fields,
    values,
    errors,
    ready: !schemaQuery.isPending,
    jsonOnly,
    jsonOpen: jsonOpen || jsonOnly,
    jsonText,
    set(name, value) {
      const next = { ...values, [name]: value };
      setValues(next);
      setErrors(({ [name]: _gone, ...rest }) => rest);
      try {
        setJsonTextState(pretty(compose(next, extras)));
      } catch {
        // a half-typed number: the JSON keeps its last valid state until the field is fixed
      }
    },
    setJsonOpen(open) {
      if (open) {
        try {
          setJsonTextState(pretty(compose(values, extras)));
        } catch (err) {
          if (err instanceof ConfigFormError) setErrors((e) => ({ ...e, [err.field]: err.message }));
        }
      }
      setJsonOpenState(open);
    },
    setJsonText(text) {
      setJsonTextState(text);
      try {
        const parts = split(parseJson(text));
        setValues(parts.values);
        setExtras(parts.extras);
        setErrors({});
      } catch (err) {
        if (err instanceof ConfigFormError) setErrors((e) => ({ ...e, [err.field]: err.message }));
      }
    },
    build() {
      try {
        if (jsonOnly) return parseJson(jsonText);
        if (jsonOpen) parseJson(jsonText);
        const config = compose(values, extras);
        const own = Object.fromEntries(Object.entries(config).filter(([k]) => !(CONFINEMENT_KEYS as readonly string[]).includes(k)));
        const found = schema ? validateConfig(schema, own) : {};
        const [first] = Object.entries(found);
        if (first) {
          setErrors(found);
          throw new ConfigFormError(first[0], first[1]);
        }
        setErrors({});
        return config;
      } catch (err) {
        const e = err instanceof ConfigFormError ? err : new ConfigFormError(JSON_KEY, 'The configuration must be valid JSON');
        setErrors((prev) => ({ ...prev, [e.field]: e.message }));
        throw e;
      }
    },
    showServerError(err) {
      const found = serverFieldErrors(err);
      if (!Object.keys(found).length) return false;
      // A problem the form has no field for is shown on the JSON editor, which then opens.
      const own = new Set(fields.map((f) => f.name));
      const placed = Object.fromEntries(Object.entries(found).map(([k, m]) => (own.has(k) ? [k, m] : [JSON_KEY, k === JSON_KEY ? m : `${k}: ${m}`])));
      if (placed[JSON_KEY]) setJsonOpenState(true);
      setErrors(placed);
      return true;
    },
  };
}

function EnvEditor({ rows, onChange, secrets, label, error }: { rows: EnvRow[]; onChange: (rows: EnvRow[]) => void; secrets: Secret[]; label: string; error: string | null }) {
  const update = (i: number, patch: Partial<EnvRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset className="stack-sm" style={{ border: 0, padding: 0, margin: 0 }}>
      <legend className="field-label" style={{ fontSize: 12, fontWeight: 500, color: 'var(--text-muted)', marginBottom: 4 }}>{label}</legend>
      {rows.length === 0 ? <div className="faint">No variables. Values can be plain text or a reference to a company secret.</div> : null}
      {rows.map((r, i) => (
        <div className="row" key={i}>
          <input className="input mono" style={{ width: 170 }} aria-label={`Variable ${i + 1} name`} placeholder="NAME" value={r.name} onChange={(e) => update(i, { name: e.target.value })} />
          <select className="input select" style={{ width: 110 }} aria-label={`Variable ${i + 1} kind`} value={r.mode} onChange={(e) => update(i, { mode: e.target.value as EnvRow['mode'] })}>
            <option value="plain">Plain</option>
            <option value="secret">Secret</option>
          </select>
          {r.mode === 'plain' ? (
            <input className="input grow" aria-label={`Variable ${i + 1} value`} value={r.value} onChange={(e) => update(i, { value: e.target.value })} />
          ) : (
            <>
              <select className="input select grow" aria-label={`Variable ${i + 1} secret`} value={r.secretId} onChange={(e) => update(i, { secretId: e.target.value })}>
                <option value="">Choose a secret…</option>
                {secrets.map((s) => (
                  <option key={s.id} value={s.id}>{s.name}</option>
                ))}
              </select>
              <select className="input select" style={{ width: 100 }} aria-label={`Variable ${i + 1} secret version`} value={r.version} onChange={(e) => update(i, { version: e.target.value })}>
                <option value="latest">latest</option>
                {(secrets.find((s) => s.id === r.secretId)?.versions ?? []).map((v) => (
                  <option key={v.version} value={String(v.version)}>v{v.version}</option>
                ))}
              </select>
            </>
          )}
          <button type="button" className="icon-btn" aria-label={`Remove variable ${r.name || i + 1}`} onClick={() => onChange(rows.filter((_, j) => j !== i))}>×</button>
        </div>
      ))}
      {error ? <div className="field-error" role="alert">{error}</div> : null}
      <div>
        <Button size="sm" onClick={() => onChange([...rows, { name: '', mode: 'plain', value: '', secretId: '', version: 'latest' }])}>Add variable</Button>
      </div>
    </fieldset>
  );
}

/** An entry of `GET /api/companies/{id}/adapters/{type}/models`. */
interface AdapterModel {
  id: string;
  label: string;
}

const OTHER_MODEL = '__other';

/**
 * The model: a choice among what the adapter reports (the installed CLI's own list where it has
 * one, else the adapter's maintained list), the adapter's default, or any other id typed in.
 */
function ModelPicker({ form, companyId, field, error }: { form: AdapterForm; companyId: string; field: FieldSpec; error: string | null }) {
  const api = useApi();
  const models = useQuery({
    queryKey: ['company', companyId, 'adapters', form.adapterType, 'models'],
    staleTime: 60_000,
    queryFn: () => api.get<AdapterModel[]>(`/api/companies/${companyId}/adapters/${form.adapterType}/models`),
  });
  const value = String(form.values[field.name] ?? '');
  const list = models.data ?? [];
  const [typing, setTyping] = useState(false);
  const other = typing || (value !== '' && !list.some((m) => m.id === value) && !models.isPending);
  const options = [
    { value: '', label: models.isPending ? 'Loading models…' : "The CLI's default model" },
    ...list.map((m) => ({ value: m.id, label: m.label === m.id ? m.id : `${m.label} (${m.id})` })),
    { value: OTHER_MODEL, label: 'Other model id…' },
  ];
  return (
    <div className="stack-sm">
      <Select
        label="Model"
        value={other ? OTHER_MODEL : value}
        options={options}
        hint={list.length ? `${list.length} models offered by this adapter` : models.isSuccess ? 'This adapter reports no models: type an id with "Other model id…"' : undefined}
        error={other ? null : error}
        onChange={(e) => {
          if (e.target.value === OTHER_MODEL) {
            setTyping(true);
            return;
          }
          setTyping(false);
          form.set(field.name, e.target.value);
        }}
      />
      {other ? <Input label="Model id" value={value} onChange={(e) => form.set(field.name, e.target.value)} placeholder="e.g. claude-sonnet-4-5" error={error} autoFocus={typing} /> : null}
    </div>
  );
}

/** The generated fields of an adapter configuration, and its raw JSON behind "Advanced". */
export function AdapterConfigFields({ form, companyId }: { form: AdapterForm; companyId: string }) {
  const api = useApi();
  const hasEnv = form.fields.some((f) => f.kind === 'env');
  const secrets = useQuery({ queryKey: keys.secrets(companyId), queryFn: () => allArrayPages<Secret>(api, `/api/companies/${companyId}/secrets`), enabled: hasEnv });
  const err = (name: string) => form.errors[name] ?? null;
  const render = (f: FieldSpec) => {
    const v = form.values[f.name];
    const hint = f.description ?? (f.default !== undefined ? `Default ${Array.isArray(f.default) ? f.default.join(', ') : String(f.default)}` : undefined);
    const label = `${f.label}${f.required ? ' *' : ''}`;
    if (f.name === 'model' && f.kind === 'text') return <ModelPicker key={f.name} form={form} companyId={companyId} field={f} error={err(f.name)} />;
    switch (f.kind) {
      case 'boolean':
        return (
          <div key={f.name}>
            <Checkbox label={f.label} checked={v === true} onChange={(e) => form.set(f.name, e.target.checked)} />
            {err(f.name) ? <div className="field-error" role="alert">{err(f.name)}</div> : null}
          </div>
        );
      case 'enum':
        return <Select key={f.name} label={label} value={String(v ?? '')} onChange={(e) => form.set(f.name, e.target.value)} options={[{ value: '', label: f.default ? `Default (${String(f.default)})` : '—' }, ...(f.options ?? []).map((o) => ({ value: o, label: o }))]} error={err(f.name)} />;
      case 'env':
        return <EnvEditor key={f.name} label="Environment" rows={Array.isArray(v) ? v : []} onChange={(rows) => form.set(f.name, rows)} secrets={secrets.data ?? []} error={err(f.name)} />;
      case 'list':
        return <Textarea key={f.name} label={label} className="input textarea mono" rows={3} value={String(v ?? '')} onChange={(e) => form.set(f.name, e.target.value)} hint={Array.isArray(f.default) ? `One per line; empty: ${f.default.join(', ')}` : 'One per line'} error={err(f.name)} />;
      case 'longtext':
      case 'json':
        return <Textarea key={f.name} label={label} className="input textarea mono" rows={f.kind === 'json' ? 6 : 4} value={String(v ?? '')} onChange={(e) => form.set(f.name, e.target.value)} hint={hint} error={err(f.name)} />;
      default:
        return (
          <Input key={f.name} label={label} type={f.kind === 'number' ? 'number' : 'text'} value={String(v ?? '')} placeholder={f.default !== undefined ? String(f.default) : undefined} onChange={(e) => form.set(f.name, e.target.value)} hint={hint} error={err(f.name)} />
        );
    }
  };
  const json = (
    <Textarea
      label="Configuration (JSON)"
      className="input textarea mono"
      rows={12}
      spellCheck={false}
      value={form.jsonText}
      onChange={(e) => form.setJsonText(e.target.value)}
      hint={form.jsonOnly ? 'This adapter publishes no form; write its configuration as JSON.' : 'The same configuration as the fields above: edit either, the other follows.'}
      error={err(JSON_KEY)}
    />
  );
  if (form.jsonOnly) return <div className="form">{json}</div>;
  const primary = form.fields.filter(isPrimaryField);
  const more = form.fields.filter((f) => !isPrimaryField(f));
  const moreChanged = more.some((f) => form.errors[f.name]);
  return (
    <div className="form">
      {primary.map(render)}
      {typeof form.values[SANDBOX_FIELD] === 'boolean' ? (
        <Checkbox
          label="Run inside the OS sandbox (recommended: without it the agent can read your data home and act as you)"
          checked={form.values[SANDBOX_FIELD] === true}
          onChange={(e) => form.set(SANDBOX_FIELD, e.target.checked)}
        />
      ) : null}
      {more.length ? (
        <details className="more-settings" open={moreChanged || undefined}>
          <summary>More settings ({more.map((f) => f.label.toLowerCase()).join(', ')})</summary>
          <div className="form" style={{ marginTop: 10 }}>{more.map(render)}</div>
        </details>
      ) : null}
      <Checkbox label="Advanced: edit as JSON" checked={form.jsonOpen} onChange={(e) => form.setJsonOpen(e.target.checked)} />
      {form.jsonOpen ? json : null}
    </div>
  );
}

const LEVEL_TONE = { info: 'neutral', warn: 'amber', error: 'red' } as const;

/** "Test environment": runs the adapter's checks for this configuration without a heartbeat. */
export function TestEnvironment({ companyId, adapterType, form }: { companyId: string; adapterType: string; form: AdapterForm }) {
  const api = useApi();
  const test = useMutation({
    mutationFn: (adapterConfig: Record<string, unknown>) => api.post<EnvironmentTestResult>(`/api/companies/${companyId}/adapters/${adapterType}/test-environment`, { adapterConfig }),
    // A configuration the server refuses names its fields: shown there, as on save.
    onError: (err) => void form.showServerError(err),
  });
  return (
    <div className="stack-sm">
      <div className="row">
        <Button
          size="sm"
          busy={test.isPending}
          onClick={() => {
            try {
              test.mutate(form.build());
            } catch {
              // the field error is shown on the form
            }
          }}
        >
          Test environment
        </Button>
        {test.data ? <Pill tone={readinessSummary(test.data).tone}>{readinessSummary(test.data).label}</Pill> : null}
      </div>
      {test.isError ? (
        <div className="error-box" role="alert">
          {(test.error as { status?: number }).status === 404 && (test.error as { code?: string }).code === 'route_not_found'
            ? 'This server cannot test environments yet.'
            : test.error.message}
        </div>
      ) : null}
      {test.data ? (
        <ul className="list" aria-label="Environment checks" style={{ margin: 0, padding: 0 }}>
          {test.data.checks.map((c, i) => (
            <li key={i} className="list-item" style={{ alignItems: 'flex-start' }}>
              <Pill tone={LEVEL_TONE[c.level]}>{c.level}</Pill>
              <div className="grow">
                <div>{c.message}</div>
                {c.hint ? <div className="muted">{c.hint}</div> : null}
              </div>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
