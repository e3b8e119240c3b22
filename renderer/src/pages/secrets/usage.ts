import type { Agent } from '../../api/types.js';

export interface SecretUse {
  label: string;
  href: string;
  /** Where in the configuration, e.g. env.OPENAI_API_KEY; and the version pinned. */
  detail: string;
}

/** Every `{type: "secret_ref"}` in a value, with its path (as the core finds them: main/core/secrets/refs.ts). */
function refsIn(value: unknown, path: string[], out: { path: string[]; ref: Record<string, unknown> }[]): void {
  if (Array.isArray(value)) value.forEach((v, i) => refsIn(v, [...path, String(i)], out));
  else if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    if (obj.type === 'secret_ref') out.push({ path, ref: obj });
    else for (const [k, v] of Object.entries(obj)) refsIn(v, [...path, k], out);
  }
}

/** Where each secret is used: agents' adapter configurations and CRM outboxes (`secret://id:version`). */
export function secretUsage(agents: readonly Agent[], outboxes: readonly { id: string; name: string; secretRef: string | null }[]): Map<string, SecretUse[]> {
  const uses = new Map<string, SecretUse[]>();
  const add = (id: string, use: SecretUse) => uses.set(id, [...(uses.get(id) ?? []), use]);
  for (const a of agents) {
    if (a.status === 'terminated') continue;
    const found: { path: string[]; ref: Record<string, unknown> }[] = [];
    refsIn(a.adapterConfig, [], found);
    for (const f of found) {
      if (typeof f.ref.secretId !== 'string') continue;
      add(f.ref.secretId, { label: a.name, href: `/agents/${a.id}`, detail: `${f.path.join('.')} · ${String(f.ref.version ?? 'latest')}` });
    }
  }
  for (const o of outboxes) {
    const m = o.secretRef ? /^secret:\/\/([^:]+):(.+)$/.exec(o.secretRef) : null;
    if (m) add(m[1]!, { label: `Outbox ${o.name}`, href: '/crm?tab=outboxes', detail: `version ${m[2]}` });
  }
  return uses;
}
