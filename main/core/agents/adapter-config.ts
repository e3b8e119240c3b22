import type { AdapterRegistry } from '../../../adapters/registry.js';
import { badRequest, forbidden } from '../kernel/errors.js';
import type { Actor } from '../kernel/actor.js';
import { fieldProblems, validationError } from '../kernel/error-contract.js';
import type { Queryable } from '../context.js';
import { assertSecretRefs } from '../secrets/refs.js';
import { ConfinementConfig, splitConfinement } from '../../../adapters/config-values.js';

/**
 * Checks `adapterConfig` against the adapter type's schema and returns it with defaults applied,
 * so the stored configuration (and every revision) says exactly what will run. With `db` and
 * `companyId`, every secret reference in it must name a live secret of that company and an
 * existing version (400 `invalid_secret_ref`); every caller that saves a configuration passes them.
 */
export function validateAdapterConfig(
  registry: AdapterRegistry,
  adapterType: string,
  config: Record<string, unknown>,
  db: Queryable,
  companyId: string,
): Record<string, unknown> {
  const adapter = registry.get(adapterType);
  if (!adapter) {
    const known = registry.list().map((a) => a.type);
    throw badRequest('unknown_adapter_type', `body.adapterType: unknown adapter type "${adapterType}"`, {
      problems: [{ location: 'body', path: 'body.adapterType', message: `must be one of: ${known.join(', ')}` }],
    });
  }
  // Experimental types (not in the stable type enum) run only for agents that opt in explicitly.
  if (adapter.experimental && config.enableExperimental !== true) {
    throw badRequest('experimental_adapter', `body.adapterConfig.enableExperimental: adapter type "${adapterType}" is experimental; set it to true to use it`, {
      problems: [{ location: 'body', path: 'body.adapterConfig.enableExperimental', message: 'must be true for an experimental adapter type' }],
    });
  }
  // The confinement settings (inheritEnv, sandbox, networkAllowlist) are the core's, valid for every adapter type.
  const split = splitConfinement(config);
  const confinement = ConfinementConfig.safeParse(split.confinement);
  const parsed = adapter.configSchema.safeParse(split.adapterConfig);
  if (!parsed.success || !confinement.success) {
    const issues = [...(parsed.success ? [] : parsed.error.issues), ...(confinement.success ? [] : confinement.error.issues)];
    throw validationError(
      fieldProblems(
        'body',
        issues.map((i) => ({
          ...i,
          path: ['adapterConfig', ...i.path],
          // A refused record key (e.g. a reserved SERVICE_* env name) carries its reason in nested issues.
          message: i.code === 'invalid_key' && i.issues.length ? i.issues.map((n) => n.message).join('; ') : i.message,
        })),
      ),
    );
  }
  assertSecretRefs(db, companyId, parsed.data);
  return { ...parsed.data, ...confinement.data };
}

/**
 * Loosening an agent's confinement is the board's alone: a hire request from an agent may not ask
 * for `sandbox: false` or `inheritEnv` names (else a hostile agent could hire itself an
 * unconfined colleague that sees the server's environment). A `networkAllowlist` only narrows the
 * default open network, so an agent's hire may carry one: a hire copying a fenced manager's adapter
 * keeps its fence instead of being refused.
 */
export function assertConfinementByBoard(actor: Actor, config: Record<string, unknown> | undefined): void {
  if (actor.kind === 'board' || !config) return;
  const asked = [...(config.sandbox === false ? ['sandbox: false'] : []), ...(Array.isArray(config.inheritEnv) && config.inheritEnv.length ? ['inheritEnv'] : [])];
  if (asked.length) throw forbidden(`Only the board may set ${asked.join(' and ')} on an agent's configuration`, 'board_only');
}
