import { sandboxStatus, BWRAP_INSTALL_LINE } from '@service/adapter-utils';

/**
 * Whether the sandbox tests can run here. Without bubblewrap they are skipped with the install line,
 * except in CI (`CI=true`), which installs it (.ci/run): there a missing sandbox fails the suite.
 */
export function sandboxAvailable(): boolean {
  const status = sandboxStatus();
  if (status.available) return true;
  const message = `The agent sandbox is not available (${status.reason ?? 'unknown'}): install it with \`${BWRAP_INSTALL_LINE}\``;
  if (process.env.CI === 'true') throw new Error(`${message}. CI must run the confinement tests, not skip them.`);
  console.warn(`skipping the confinement tests: ${message}`);
  return false;
}
