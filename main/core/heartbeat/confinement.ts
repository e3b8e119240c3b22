import type { Confinement, ServerAdapterModule } from '@service/adapter-utils';
import { splitConfinement } from '../../../adapters/config-values.js';
import type { HomePaths } from '../context.js';
import { PACKAGE_ROOT } from '../kernel/package-root.js';

/**
 * How one run's processes are confined (docs/security.md, "What an agent can and cannot reach"):
 * the environment names the board let it inherit, and the sandbox policy, where the whole data home
 * is hidden (master key, database and WAL, board token, transcripts, attachments, other companies)
 * and only the cwd, a scratch folder and the CLI's declared state paths are writable. Returns the
 * configuration the adapter itself reads, without the confinement settings.
 */
export function runConfinement(paths: HomePaths, adapter: Pick<ServerAdapterModule, 'stateDirs'>, config: Record<string, unknown>, runId: string): { adapterConfig: Record<string, unknown>; confinement: Confinement } {
  const { confinement, adapterConfig } = splitConfinement(config);
  const inheritEnv = Array.isArray(confinement.inheritEnv) ? confinement.inheritEnv.filter((n): n is string => typeof n === 'string') : [];
  const networkAllowlist = Array.isArray(confinement.networkAllowlist) ? confinement.networkAllowlist.filter((n): n is string => typeof n === 'string') : undefined;
  return {
    adapterConfig,
    confinement: {
      inheritEnv,
      runId,
      ...(networkAllowlist ? { networkAllowlist } : {}),
      sandbox: confinement.sandbox === false ? null : { hidden: [paths.home], stateDirs: adapter.stateDirs ?? [], readable: [PACKAGE_ROOT] },
    },
  };
}

/** Whether the board turned the sandbox off for this configuration. */
export const sandboxDisabled = (config: Record<string, unknown>): boolean => config.sandbox === false;
