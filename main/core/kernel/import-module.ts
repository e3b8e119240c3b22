/**
 * The key under which the CLI's bundle loader lends its `import()` (main/cli/code-cache.ts).
 * A symbol in the global registry, so the loader and the bundle agree on it without importing each other.
 */
export const IMPORT_HOOK = Symbol.for('headcount.importModule');

type Importer = (specifier: string) => Promise<unknown>;

/**
 * `import()` of a module named at run time (an adapter plugin's entry).
 *
 * The CLI runs as a CommonJS bundle compiled with V8's code cache. On Node 20 a script whose code
 * comes from the cache loses its `import()` hook (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING), so the
 * bundle's loader, an ES module, lends its own `import()` under IMPORT_HOOK. Everywhere else (the
 * tests, the desktop window, the compiled modules) this is a plain `import()`.
 */
export function importModule(specifier: string): Promise<unknown> {
  const lent = (globalThis as Record<symbol, Importer | undefined>)[IMPORT_HOOK];
  return lent ? lent(specifier) : import(specifier);
}
