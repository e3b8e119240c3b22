import type { EnvironmentCheck } from '@service/adapter-utils';

/**
 * "Installed", "signed in" and "ready" are three answers, not one: a CLI on PATH without a login or
 * an API key passes the spec's `status` (its `auth_missing` is a warning) yet cannot do any work, so
 * the board must never call it ready. Each is read from the check codes the adapters share:
 * `cli_detected` / `cli_not_found`; `auth_*` (a credential found) / `auth_missing`, and the probe's
 * `login_required`. `null` means the question does not apply (no CLI, no credential to check).
 */
export interface Readiness {
  installed: boolean | null;
  signedIn: boolean | null;
  ready: boolean;
}

const SIGNED_OUT = new Set(['auth_missing', 'login_required', 'gateway_auth_failed']);

export function readinessOf(checks: readonly EnvironmentCheck[]): Readiness {
  const has = (code: string) => checks.some((c) => c.code === code);
  const installed = has('cli_not_found') ? false : has('cli_detected') ? true : null;
  const signedIn = checks.some((c) => SIGNED_OUT.has(c.code))
    ? false
    : checks.some((c) => c.code.startsWith('auth_') || c.code === 'api_key_overrides_login')
      ? true
      : null;
  const ready = installed !== false && signedIn !== false && !checks.some((c) => c.level === 'error');
  return { installed, signedIn, ready };
}
