import { AsyncLocalStorage } from 'node:async_hooks';
import type { SandboxPolicy } from './sandbox.js';

/**
 * How the processes of one run are confined. The server sets it around `adapter.execute` with
 * `withConfinement`, so every process an adapter starts through `runChildProcess` (built-in adapters,
 * `runCli`, plugins) gets it without passing it along: confinement is a layer of the process runner,
 * not something each adapter has to remember.
 */
export interface Confinement {
  /** Extra variable names the board lets this agent inherit from the server's environment. */
  inheritEnv: string[];
  /** The OS sandbox policy; null when the board turned the sandbox off or it is unavailable. */
  sandbox: SandboxPolicy | null;
  /** The run id: processes of the run carry it, so a restart can find what a crash left behind. */
  runId?: string;
}

// One store per process even when a plugin bundles its own copy of this package.
const KEY = Symbol.for('headcount.adapter-utils.confinement');
const holder = globalThis as unknown as Record<symbol, AsyncLocalStorage<Confinement> | undefined>;
const storage: AsyncLocalStorage<Confinement> = (holder[KEY] ??= new AsyncLocalStorage<Confinement>());

export function withConfinement<T>(confinement: Confinement, fn: () => T): T {
  return storage.run(confinement, fn);
}

/** The confinement of the run whose code is executing, if any. */
export function currentConfinement(): Confinement | undefined {
  return storage.getStore();
}
