import type { EnvironmentCheck } from '../types.js';
import { networkAllowlistProblem } from './run-network.js';
import { sandboxStatus, type SandboxStatus } from './sandbox.js';

/**
 * The `sandbox` environment check: whether this agent's processes will run inside the OS sandbox.
 * `enabled` is the agent's setting (`adapterConfig.sandbox`, default true); with a
 * `networkAllowlist`, whether it can be enforced (else its runs are refused).
 */
export function sandboxCheck(enabled: boolean, status: SandboxStatus = sandboxStatus(), networkAllowlist?: readonly string[]): EnvironmentCheck {
  if (networkAllowlist) {
    const problem = networkAllowlistProblem(enabled, status);
    if (problem) return { level: 'error', code: 'network_allowlist_unavailable', message: `This agent's networkAllowlist cannot be enforced (${problem}): its runs are refused rather than run with an open network`, hint: enabled ? (status.installHint ? `Install it: ${status.installHint}` : 'Remove networkAllowlist to run it with an open network.') : 'Remove "sandbox": false, or remove networkAllowlist.' };
    const hosts = networkAllowlist.length ? networkAllowlist.join(', ') : 'none';
    return { level: 'info', code: 'sandbox_available', message: `Agent processes run inside the OS sandbox (${status.kind}); network limited to the loopback API and, through a proxy, these hosts: ${hosts}` };
  }
  if (!enabled) {
    return { level: 'warn', code: 'sandbox_disabled', message: 'The sandbox is turned off for this agent: its processes can read your data home (master key, database, every transcript) and act as you', hint: 'Remove "sandbox": false from the agent configuration to confine it again.' };
  }
  if (status.available) return { level: 'info', code: 'sandbox_available', message: `Agent processes run inside the OS sandbox (${status.kind})` };
  if (process.platform === 'win32') return { level: 'warn', code: 'sandbox_unavailable', message: 'Not available on Windows: agent processes run with your user account\'s full access' };
  return { level: 'warn', code: 'sandbox_unavailable', message: `The OS sandbox is not available: ${status.reason ?? 'unknown reason'}; agent processes run unconfined`, ...(status.installHint ? { hint: `Install it: ${status.installHint}` } : {}) };
}
