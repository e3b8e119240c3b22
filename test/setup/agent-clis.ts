// Vitest global setup: the pinned agent CLIs are installed into their cache before any test runs,
// so a fresh clone's `npm test` needs nothing but Node and npm (and the npm registry).
import { installAgentClis } from '../helpers/install-agent-clis.mjs';

export default async function setup(): Promise<void> {
  const failed = (await installAgentClis()).filter((r) => r.outcome === 'failed');
  if (failed.length) {
    throw new Error(`could not install the agent CLIs the tests drive:\n${failed.map((f) => `  ${f.cli.package}@${f.cli.version}: ${f.error}`).join('\n')}`);
  }
}
