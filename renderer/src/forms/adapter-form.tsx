import { useEffect, useMemo, useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useApi } from '../app/api-context.js';
import { keys } from '../api/keys.js';
import type { Secret } from '../api/types.js';
import { Button } from '../components/Button.js';
import { Checkbox, Input, Select, Textarea } from '../components/Field.js';
import { Pill } from '../components/Pill.js';
import { readinessSummary, type EnvironmentTestResult } from './readiness.js';
import { configFromValues, ConfigFormError, fieldsOf, findConfigSchema, isPrimaryField, valuesFromConfig, type EnvRow, type FieldSpec, type FormValues, type JsonSchema } from './schema-fields.js';

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

/** The component schemas of /api/openapi.json, where the adapters' config schemas are published. */
export function useSchemaComponents() {
  const api = useApi();
  return useQuery({
    queryKey: ['openapi-components'],
    staleTime: Infinity,
    queryFn: async () => (await api.get<{ components?: { schemas?: Record<string, JsonSchema> } }>('/api/openapi.json')).components?.schemas ?? {},
  });
}

/** The form value of the per-agent sandbox switch (`adapterConfig.sandbox`, default on). */
export const SANDBOX_FIELD = '__sandbox';

const JSON_FIELD: FieldSpec = { name: '__json', kind: 'json', required: false, label: 'Configuration (JSON)', description: 'No form is published for this adapter; write its configuration as JSON.' };

export interface AdapterForm {
  fields: FieldSpec[];
  values: FormValues;
  set(name: string, value: FormValues[string]): void;
  error: ConfigFormError | null;
  /** The configuration, or throws ConfigFormError (also kept in `error`). */
  build(): Record<string, unknown>;
  ready: boolean;
}

export function useAdapterForm(adapterType: string, initial: Record<string, unknown> = {}): AdapterForm {
  const components = useSchemaComponents();
  const schema = components.data ? findConfigSchema(components.data, adapterType) : null;
  const fields = useMemo(() => (schema ? fieldsOf(schema) : [JSON_FIELD]), [schema]);
  const [values, setValues] = useState<FormValues>({});
  const [error, setError] = useState<ConfigFormError | null>(null);
  const initialKey = JSON.stringify(initial);
  useEffect(() => {
    setValues(schema ? { ...valuesFromConfig(fields, initial), [SANDBOX_FIELD]: initial.sandbox !== false } : { __json: Object.keys(initial).length ? JSON.stringify(initial, null, 2) : '{}' });
    setError(null);
    // `initial` is compared by value (initialKey): a parent passing a fresh object each render must not reset the form.
  }, [fields, schema, initialKey]);
  return {
    fields,
    values,
    error,
    ready: !components.isPending,
    set: (name, value) => setValues((v) => ({ ...v, [name]: value })),
    build() {
      try {
        setError(null);
        if (!schema) {
          const parsed: unknown = JSON.parse(String(values.__json || '{}'));
          if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ConfigFormError('__json', 'The configuration must be a JSON object');
          return parsed as Record<string, unknown>;
        }
        // The confinement settings belong to every adapter type, not to its published schema: the
        // sandbox has its own checkbox; inheritEnv and networkAllowlist (set through the API) survive a
        // save (a dropped allowlist would reopen the agent's network).
        const confinement = {
          ...(Array.isArray(initial.inheritEnv) ? { inheritEnv: initial.inheritEnv } : {}),
          ...(Array.isArray(initial.networkAllowlist) ? { networkAllowlist: initial.networkAllowlist } : {}),
          ...(values[SANDBOX_FIELD] === false ? { sandbox: false } : {}),
        };
        return { ...configFromValues(fields, values, {}), ...confinement };
      } catch (err) {
        const e = err instanceof ConfigFormError ? err : new ConfigFormError('__json', 'The configuration must be valid JSON');
        setError(e);
        throw e;
      }
    },
  };
}

function EnvEditor({ rows, onChange, secrets, label }: { rows: EnvRow[]; onChange: (rows: EnvRow[]) => void; secrets: Secret[]; label: string }) {
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
      <div>
        <Button size="sm" onClick={() => onChange([...rows, { name: '', mode: 'plain', value: '', secretId: '', version: 'latest' }])}>Add variable</Button>
      </div>
    </fieldset>
  );
}

/** The generated fields of an adapter configuration. */
export function AdapterConfigFields({ form, companyId }: { form: AdapterForm; companyId: string }) {
  const api = useApi();
  const hasEnv = form.fields.some((f) => f.kind === 'env');
  const secrets = useQuery({ queryKey: keys.secrets(companyId), queryFn: () => api.get<Secret[]>(`/api/companies/${companyId}/secrets`), enabled: hasEnv });
  const err = (name: string) => (form.error?.field === name ? form.error.message : null);
  const render = (f: FieldSpec) => {
    const v = form.values[f.name];
    const hint = f.description ?? (f.default !== undefined ? `Default ${String(f.default)}` : undefined);
    const label = `${f.label}${f.required ? ' *' : ''}`;
    switch (f.kind) {
      case 'boolean':
        return <Checkbox key={f.name} label={f.label} checked={v === true} onChange={(e) => form.set(f.name, e.target.checked)} />;
      case 'enum':
        return <Select key={f.name} label={label} value={String(v ?? '')} onChange={(e) => form.set(f.name, e.target.value)} options={[{ value: '', label: f.default ? `Default (${String(f.default)})` : '—' }, ...(f.options ?? []).map((o) => ({ value: o, label: o }))]} error={err(f.name)} />;
      case 'env':
        return <EnvEditor key={f.name} label="Environment" rows={Array.isArray(v) ? v : []} onChange={(rows) => form.set(f.name, rows)} secrets={secrets.data ?? []} />;
      case 'list':
        return <Textarea key={f.name} label={label} className="input textarea mono" rows={3} value={String(v ?? '')} onChange={(e) => form.set(f.name, e.target.value)} hint="One per line" error={err(f.name)} />;
      case 'longtext':
      case 'json':
        return <Textarea key={f.name} label={label} className="input textarea mono" rows={f.kind === 'json' ? 6 : 4} value={String(v ?? '')} onChange={(e) => form.set(f.name, e.target.value)} hint={hint} error={err(f.name)} />;
      default:
        return (
          <Input key={f.name} label={label} type={f.kind === 'number' ? 'number' : 'text'} value={String(v ?? '')} placeholder={f.default !== undefined ? String(f.default) : undefined} onChange={(e) => form.set(f.name, e.target.value)} hint={hint} error={err(f.name)} />
        );
    }
  };
  const primary = form.fields.filter(isPrimaryField);
  const more = form.fields.filter((f) => !isPrimaryField(f));
  const moreChanged = more.some((f) => form.error?.field === f.name);
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
    </div>
  );
}

const LEVEL_TONE = { info: 'neutral', warn: 'amber', error: 'red' } as const;

/** "Test environment": runs the adapter's checks for this configuration without a heartbeat. */
export function TestEnvironment({ companyId, adapterType, form }: { companyId: string; adapterType: string; form: AdapterForm }) {
  const api = useApi();
  const test = useMutation({
    mutationFn: (adapterConfig: Record<string, unknown>) => api.post<EnvironmentTestResult>(`/api/companies/${companyId}/adapters/${adapterType}/test-environment`, { adapterConfig }),
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
