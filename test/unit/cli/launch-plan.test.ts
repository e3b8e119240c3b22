import { describe, expect, it } from 'vitest';
import { planLaunch, type LaunchFacts } from '../../../main/cli/launch-plan.js';

const ready: LaunchFacts = {
  electronBinary: '/x/electron',
  binaryExists: true,
  entry: '/app/dist/main/electron/main.js',
  entryExists: true,
  nativeBinding: '/app/build/native/electron/better_sqlite3.node',
  nativeBindingExists: true,
  platform: 'linux',
  env: { DISPLAY: ':0' },
};

describe('npm start launch plan', () => {
  it('opens the desktop window when everything is there', () => {
    expect(planLaunch(ready)).toEqual({ mode: 'electron', binary: '/x/electron', entry: ready.entry, provision: false });
    expect(planLaunch({ ...ready, platform: 'darwin', env: {} }).mode).toBe('electron');
    expect(planLaunch({ ...ready, platform: 'win32', env: {} }).mode).toBe('electron');
    expect(planLaunch({ ...ready, env: { WAYLAND_DISPLAY: 'wayland-0' } }).mode).toBe('electron');
  });
  it.each([
    [{ electronBinary: null, binaryExists: false }, 'Electron is not installed'],
    [{ binaryExists: false }, 'the Electron binary is missing'],
    [{ entryExists: false }, 'the desktop shell is not built'],
    [{ env: {} }, 'no display'],
    [{ env: { DISPLAY: ':0', HEADCOUNT_HEADLESS: '1' } }, 'HEADCOUNT_HEADLESS=1'],
  ] as const)('falls back to headless: %j', (change, reason) => {
    const plan = planLaunch({ ...ready, ...change } as LaunchFacts);
    expect(plan.mode).toBe('headless');
    expect(plan.mode === 'headless' && plan.reason).toContain(reason);
  });

  it('provisions the Electron build of better-sqlite3 when it is missing or made for another Electron', () => {
    expect(planLaunch({ ...ready, nativeBindingExists: false })).toMatchObject({ mode: 'electron', provision: true });
    expect(planLaunch({ ...ready, electronVersion: '46.0.0', nativeBindingElectron: '45.4.1' })).toMatchObject({ mode: 'electron', provision: true });
    expect(planLaunch({ ...ready, electronVersion: '45.4.1', nativeBindingElectron: '45.4.1' })).toMatchObject({ mode: 'electron', provision: false });
    // No display: the headless board, without building anything for a window that cannot open.
    expect(planLaunch({ ...ready, nativeBindingExists: false, env: {} }).mode).toBe('headless');
  });
});
