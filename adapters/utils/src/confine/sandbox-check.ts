import type { EnvironmentCheck } from '../types.js';
import { sandboxStatus, type SandboxStatus } from './sandbox.js';

/**
 * The `sandbox` environment check: whether this agent's processes will run inside the OS sandbox.
 * `enabled` is the agent's setting (`adapterConfig.sandbox`, default true).
 */
export function sandboxCheck(enabled: boolean, status: SandboxStatus = sandboxStatus()): EnvironmentCheck {
  if (!enabled) {
    return { level: 'warn', code: 'sandbox_disabled', message: 'The sandbox is turned off for this agent: its processes can read your data home (master key, database, every transcript) and act as you', hint: 'Remove "sandbox": false from the agent configuration to confine it again.' };
  }
  if (status.available) return { level: 'info', code: 'sandbox_available', message: `Agent processes run inside the OS sandbox (${status.kind})` };
  if (process.platform === 'win32') return { level: 'warn', code: 'sandbox_unavailable', message: 'Not available on Windows: agent processes run with your user account\'s full access' };
  return { level: 'warn', code: 'sandbox_unavailable', message: `The OS sandbox is not available: ${status.reason ?? 'unknown reason'}; agent processes run unconfined`, ...(status.installHint ? { hint: `Install it: ${status.installHint}` } : {}) };
}
