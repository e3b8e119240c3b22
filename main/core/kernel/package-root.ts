import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/**
 * The folder holding headcount's package.json. Found by walking up from this file so it is the
 * same from source (tsx, vitest), from dist/ and from inside a packaged app. Non-code assets such
 * as SQL migrations are read relative to it rather than copied into dist/.
 */
function findPackageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'package.json');
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string };
      if (pkg.name === 'headcount') return dir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('headcount package.json not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

export const PACKAGE_ROOT = findPackageRoot();

export const VERSION: string = (
  JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

/**
 * The path a separate process (an agent's Node, a CLI) must use for a file of the package. Inside a
 * packaged app the package root is `app.asar`, which only Electron's patched fs can read; files the
 * builder unpacks (electron-builder.yml `asarUnpack`) live beside it in `app.asar.unpacked`.
 */
export function unpackedPath(file: string): string {
  return file.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
}
