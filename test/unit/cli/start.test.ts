import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EARLY_EXIT_MS, gatherLaunchFacts, headlessLine, launch, provisionElectronNative, type LaunchDeps } from '../../../main/cli/launch-plan.js';

/** What `npm start` did: lines said, headless starts, exits, spawned commands. */
function recorder(overrides: Partial<LaunchDeps> = {}) {
  const said: string[] = [];
  const exits: number[] = [];
  const spawned: { command: string; args: string[]; env: NodeJS.ProcessEnv | undefined }[] = [];
  let headless = 0;
  let clock = 0;
  const child = new EventEmitter();
  const deps: LaunchDeps = {
    spawn: (command, args, options) => {
      spawned.push({ command, args, env: options.env });
      return child as any;
    },
    provision: () => Promise.resolve(),
    headless: () => void headless++,
    say: (line) => void said.push(line),
    exit: (code) => void exits.push(code),
    now: () => clock,
    env: { PATH: '/bin', ELECTRON_RUN_AS_NODE: '1', DISPLAY: ':0' },
    ...overrides,
  };
  return { deps, said, exits, spawned, child, headless: () => headless, advance: (ms: number) => void (clock += ms) };
}

describe('npm start', () => {
  it('without Electron: one clear line, then the headless board on port 3100', () => {
    const r = recorder();
    launch({ mode: 'headless', reason: 'Electron is not installed' }, 3100, r.deps);
    expect(r.said).toEqual([headlessLine('Electron is not installed', 3100)]);
    expect(r.said[0]).toMatch(/^Electron cannot start here \(Electron is not installed\); serving the headless board on http:\/\/127\.0\.0\.1:3100 instead: open the board link printed below in your browser\.$/);
    expect(r.headless()).toBe(1);
    expect(r.spawned).toEqual([]);
  });

  it('here, where Electron is absent, the real facts plan the headless board', () => {
    const facts = gatherLaunchFacts(import.meta.url, '/nowhere/main.js', '/nowhere/better_sqlite3.node');
    expect(facts.electronBinary).toBeNull();
    expect(facts.entryExists).toBe(false);
  });

  it('with Electron: starts the shell without ELECTRON_RUN_AS_NODE and exits with its code', () => {
    const r = recorder();
    launch({ mode: 'electron', binary: '/x/electron', entry: '/app/main.js', provision: false }, 3100, r.deps);
    expect(r.spawned).toEqual([{ command: '/x/electron', args: ['/app/main.js'], env: { PATH: '/bin', DISPLAY: ':0' } }]);
    r.advance(EARLY_EXIT_MS + 1);
    r.child.emit('exit', 0, null);
    expect(r.exits).toEqual([0]);
    expect(r.headless()).toBe(0);
  });

  it('a window that ran for a while and failed is not replaced by the headless board', () => {
    const r = recorder();
    launch({ mode: 'electron', binary: '/x/electron', entry: '/app/main.js', provision: false }, 3100, r.deps);
    r.advance(EARLY_EXIT_MS + 1);
    r.child.emit('exit', 2, null);
    expect(r.exits).toEqual([2]);
    expect(r.headless()).toBe(0);
  });

  it('falls back once when Electron cannot spawn or dies at start', () => {
    const r = recorder();
    launch({ mode: 'electron', binary: '/x/electron', entry: '/app/main.js', provision: false }, 3100, r.deps);
    r.child.emit('error', new Error('spawn /x/electron EACCES'));
    r.child.emit('exit', null, 'SIGABRT');
    expect(r.headless()).toBe(1);
    expect(r.said).toEqual([headlessLine('Electron failed to start: spawn /x/electron EACCES', 3100)]);
    expect(r.exits).toEqual([]);
  });

  it('with a real binary that crashes at start, the headless board takes over', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hc-start-'));
    const fake = path.join(dir, 'electron');
    writeFileSync(fake, `#!${process.execPath}\nprocess.stderr.write('libgtk-3.so.0: cannot open shared object file\\n');\nprocess.exit(127);\n`);
    chmodSync(fake, 0o755);
    const done = new Promise<string>((resolve) => {
      launch({ mode: 'electron', binary: fake, entry: '/app/main.js', provision: false }, 3100, {
        spawn: (c, a, o) => spawn(c, a, { ...o, stdio: 'ignore' }),
        provision: () => Promise.reject(new Error('not called')),
        headless: () => resolve('headless'),
        say: () => {},
        exit: (code) => resolve(`exit ${code}`),
        now: () => Date.now(),
        env: process.env,
      });
    });
    expect(await done).toBe('headless');
  });

  it('builds better-sqlite3 for Electron first when it has no build for it, then opens the window', async () => {
    let provisioned = 0;
    const r = recorder({ provision: async () => void provisioned++ });
    launch({ mode: 'electron', binary: '/x/electron', entry: '/app/main.js', provision: true }, 3100, r.deps);
    expect(r.spawned).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(provisioned).toBe(1);
    expect(r.said[0]).toMatch(/Building better-sqlite3 for Electron/);
    expect(r.spawned.map((s) => s.command)).toEqual(['/x/electron']);
    expect(r.headless()).toBe(0);
  });

  it('when the Electron build of better-sqlite3 cannot be made, says why and what to run, then serves the board', async () => {
    const r = recorder({ provision: () => Promise.reject(new Error('the build exited with code 1')) });
    launch({ mode: 'electron', binary: '/x/electron', entry: '/app/main.js', provision: true }, 3100, r.deps);
    await new Promise((resolve) => setImmediate(resolve));
    expect(r.spawned).toEqual([]);
    expect(r.headless()).toBe(1);
    expect(r.said.at(-1)).toBe(headlessLine('better-sqlite3 could not be built for Electron: the build exited with code 1; run `npm run electron:native` to retry', 3100));
  });

  it('provisioning runs the built electron:native script as its own process', async () => {
    const calls: { command: string; args: string[] }[] = [];
    const child = new EventEmitter();
    const done = provisionElectronNative((command, args) => {
      calls.push({ command, args });
      return child as any;
    }, '/app');
    child.emit('exit', 0);
    await done;
    expect(calls).toEqual([{ command: process.execPath, args: [path.join('/app', 'dist', 'main', 'electron', 'native-build.js')] }]);
    const failing = new EventEmitter();
    const failed = provisionElectronNative(() => failing as any, '/app');
    failing.emit('exit', 1);
    await expect(failed).rejects.toThrow('exited with code 1');
  });
});
