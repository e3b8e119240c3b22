import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../app/api-context.js';
import { keys } from '../../api/keys.js';
import type { Secret } from '../../api/types.js';
import { adapterLabel } from '../../app/adapter-label.js';
import { allArrayPages } from '../../api/array-pages.js';

type Config = Record<string, unknown>;

const isObject = (v: unknown): v is Config => v !== null && typeof v === 'object' && !Array.isArray(v);

/** An argument as a shell would need it, so the founder reads where each argument starts and ends. */
const shellWord = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'"'"'`)}'`);

/**
 * What a hire would run, so the founder approves exactly that: the adapter, its command and
 * working directory, every environment variable and header, and every secret it would receive
 * (by name and version). The board is trusted, so plain values are shown.
 */
export function HireRunsAs({ companyId, adapterType, adapterConfig }: { companyId: string; adapterType: unknown; adapterConfig: unknown }) {
  const api = useApi();
  const secrets = useQuery({ queryKey: keys.secrets(companyId), queryFn: () => allArrayPages<Secret>(api, `/api/companies/${companyId}/secrets`) });
  const config: Config = isObject(adapterConfig) ? adapterConfig : {};
  const command = [config.command, ...(Array.isArray(config.args) ? config.args : [])]
    .filter((p): p is string => typeof p === 'string')
    .map(shellWord)
    .join(' ');
  const secretLabel = (v: Config) => {
    const name = secrets.data?.find((s) => s.id === v.secretId)?.name ?? `unknown secret ${String(v.secretId)}`;
    return `secret ${name} (${v.version === undefined || v.version === 'latest' ? 'latest version' : `version ${String(v.version)}`})`;
  };
  const rows = (map: unknown) =>
    isObject(map)
      ? Object.entries(map).map(([name, v]) => ({ name, value: isObject(v) && v.type === 'secret_ref' ? secretLabel(v) : String(v), secret: isObject(v) && v.type === 'secret_ref' }))
      : [];
  const env = rows(config.env);
  const headers = rows(config.headers);
  return (
    <dl className="kv" style={{ margin: 0 }} aria-label="What the hire will run">
      <dt>Adapter</dt>
      <dd>{typeof adapterType === 'string' ? adapterLabel(adapterType) : '—'}</dd>
      <dt>Command</dt>
      <dd className="mono">{command || 'the adapter\'s default'}</dd>
      <dt>Working directory</dt>
      <dd className="mono">{typeof config.cwd === 'string' ? config.cwd : 'the system temp directory (default)'}</dd>
      {typeof config.url === 'string' ? (<><dt>URL</dt><dd className="mono">{config.url}</dd></>) : null}
      <dt>Environment</dt>
      <dd>{env.length ? <VarList rows={env} /> : <span className="faint">None beyond the run's own SERVICE_* variables</span>}</dd>
      {headers.length ? (<><dt>Headers</dt><dd><VarList rows={headers} /></dd></>) : null}
      <dt>Secrets it receives</dt>
      <dd>{[...env, ...headers].filter((r) => r.secret).map((r) => r.value).join(', ') || <span className="faint">None</span>}</dd>
    </dl>
  );
}

function VarList({ rows }: { rows: { name: string; value: string; secret: boolean }[] }) {
  return (
    <ul className="stack-sm" style={{ margin: 0, paddingLeft: 0, listStyle: 'none' }}>
      {rows.map((r) => (
        <li key={r.name} className="mono">
          {r.name} = {r.secret ? <strong>{r.value}</strong> : r.value}
        </li>
      ))}
    </ul>
  );
}
