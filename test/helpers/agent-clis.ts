// Where the real-CLI tests find the pinned agent CLIs (installed by install-agent-clis.mjs into a
// cache outside the repository; vitest's global setup does it before any test runs).
import { binOf, pinned } from './install-agent-clis.mjs';

/** Absolute path of a pinned agent CLI's executable, e.g. `agentCli('claude')`. */
export function agentCli(bin: 'claude' | 'codex' | 'gemini' | 'opencode' | 'qwen' | 'pi'): string {
  const cli = pinned.find((c) => c.bin === bin);
  if (!cli) throw new Error(`${bin} is not pinned in test/agent-clis.json`);
  return binOf(cli);
}
