import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { tempHome } from '../../helpers/core.js';
import { ROOT, requireBuiltCli } from '../../api/durability/serve-process.js';

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'keychain-check.mjs');
const INSTALL = 'apt-get install -y dbus gnome-keyring';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** An executable of that name on PATH (looked up here: no shell is needed to find out). */
const onPath = (command: string): boolean =>
  (process.env.PATH ?? '').split(path.delimiter).some((dir) => {
    try {
      accessSync(path.join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });

/**
 * DESIGN.md: the real OS keychain is tested where a Secret Service can run. The test starts its
 * own: a private session bus (dbus-run-session) and a gnome-keyring unlocked with a throwaway
 * password, with HOME and every XDG folder in a temp folder, so it needs no keychain running
 * beforehand and never touches the user's. Both end with the session. Without the two programs
 * it is skipped with the install line, except in CI (.ci/run installs them), where that fails.
 */
describe('OS keychain (gnome-keyring under dbus-run-session)', () => {
  it('creates, reads back and replaces the key and the pending key, and runs a rotation on it', (ctx) => {
    const missing = ['dbus-run-session', 'gnome-keyring-daemon'].filter((c) => !onPath(c));
    if (missing.length) {
      const why = `${missing.join(' and ')} not found: this test starts its own Secret Service; install it with \`${INSTALL}\``;
      if (process.env.CI === 'true') throw new Error(`${why} (.ci/run does; in CI this test must run)`);
      // The note is shown by the verbose reporter only; the default one prints what a test logs.
      console.warn(`skipped: ${why}`);
      ctx.skip(why);
    }
    requireBuiltCli();
    const sandbox = tempHome('headcount-keychain-');
    dirs.push(sandbox);
    // A throwaway user: the keyring daemon keeps its login keyring and sockets here, never in the real ones.
    const userHome = path.join(sandbox, 'user');
    const xdg = Object.fromEntries(
      ['XDG_RUNTIME_DIR', 'XDG_DATA_HOME', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME'].map((name) => {
        const dir = path.join(userHome, name.toLowerCase());
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        return [name, dir];
      }),
    );
    const home = path.join(sandbox, 'service');
    // The password arrives on stdin (first line), so it is on no command line. gnome-keyring creates
    // its login collection only for a non-empty one; without it every write fails.
    const shell = `IFS= read -r password && printf '%s' "$password" | gnome-keyring-daemon --unlock --components=secrets >/dev/null && exec node "$0" "$@" </dev/null`;
    const r = spawnSync('dbus-run-session', ['--', 'sh', '-c', shell, SCRIPT, path.join(ROOT, 'dist'), home, path.join(sandbox, 'other')], {
      cwd: ROOT,
      // No DBUS_SESSION_BUS_ADDRESS from the caller: only the private bus is reachable.
      env: { PATH: process.env.PATH, HOME: userHome, LANG: 'C.UTF-8', ...xdg },
      input: `${randomBytes(16).toString('hex')}\n`,
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
