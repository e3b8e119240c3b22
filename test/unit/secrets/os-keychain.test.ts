import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { tempHome } from '../../helpers/core.js';
import { ROOT, requireBuiltCli } from '../../api/durability/serve-process.js';

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'keychain-check.mjs');
const PACKAGES = 'dbus gnome-keyring dbus-x11';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const has = (command: string): boolean => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

/**
 * DESIGN.md: the real OS keychain is tested where a Secret Service can run. CI installs one, so
 * this test never skips: a missing tool is a failure that says what to install.
 */
describe('OS keychain (gnome-keyring under dbus-run-session)', () => {
  it('creates, reads back and replaces the key and the pending key, and runs a rotation on it', () => {
    requireBuiltCli();
    const missing = ['dbus-run-session', 'gnome-keyring-daemon'].filter((c) => !has(c));
    if (missing.length) {
      throw new Error(`${missing.join(' and ')} not found: install the Debian packages with \`apt-get install -y ${PACKAGES}\` (.ci/run does).`);
    }
    const sandbox = tempHome('headcount-keychain-');
    dirs.push(sandbox);
    // A throwaway user home: the keyring daemon keeps its login keyring there, never in the real one.
    const userHome = path.join(sandbox, 'user');
    mkdirSync(userHome);
    const home = path.join(sandbox, 'service');
    // gnome-keyring creates its login collection only for a non-empty password; with `printf ""`
    // the Secret Service has no default collection and every write fails.
    const shell = `printf 'headcount-test' | gnome-keyring-daemon --unlock --components=secrets >/dev/null && exec node "$0" "$@"`;
    const r = spawnSync('dbus-run-session', ['--', 'sh', '-c', shell, SCRIPT, path.join(ROOT, 'dist'), home, path.join(sandbox, 'other')], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: userHome, LANG: 'C.UTF-8' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    const line = r.stdout.trim().split('\n').pop() ?? '';
    let out: any;
    try {
      out = JSON.parse(line);
    } catch {
      throw new Error(`the keychain script printed no result (exit ${r.status}, ${r.error?.message ?? 'no spawn error'}):\n${r.stdout}\n${r.stderr}`);
    }
    expect(out).toEqual({
      available: { ok: true },
      defaultKind: 'os-keychain',
      emptyAtFirst: true,
      keyBytes: 32,
      readBack: true,
      createIsStable: true,
      noPendingAtFirst: true,
      pendingReadBack: true,
      currentUntouchedByPending: true,
      replaced: true,
      pendingCleared: true,
      otherHomeSeparate: true,
      rotation: { rotated: true, toGeneration: 2, store: expect.stringMatching(/^OS keychain \(service "headcount", account "master-key:[0-9a-f]{16}"\)$/) },
      keyChangedByRotation: true,
      resolvedAfterRotation: true,
    });
    expect(r.status).toBe(0);
  });
});
