import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bwrapCommand, buildAgentEnv, seatbeltProfile, statePaths } from '@service/adapter-utils';

describe('buildAgentEnv', () => {
  const source = {
    PATH: '/usr/bin',
    HOME: '/home/me',
    LANG: 'en_US.UTF-8',
    LC_ALL: 'C',
    https_proxy: 'http://proxy:3128',
    SERVICE_BOARD_TOKEN: 'hcb_board',
    SERVICE_HOME: '/home/me/.service',
    AWS_SECRET_ACCESS_KEY: 'aws',
    MY_TOOL_TOKEN: 'tool',
    SystemRoot: 'C:\\Windows',
  };

  it('keeps the allowlist and LC_*, drops everything else of the server', () => {
    expect(buildAgentEnv({ source, platform: 'linux' })).toEqual({ PATH: '/usr/bin', HOME: '/home/me', LANG: 'en_US.UTF-8', LC_ALL: 'C', https_proxy: 'http://proxy:3128' });
  });

  it('adds the inheritEnv names, but never a SERVICE_* server setting', () => {
    const env = buildAgentEnv({ source, inherit: ['MY_TOOL_TOKEN', 'SERVICE_BOARD_TOKEN', 'SERVICE_HOME', 'NOT_SET'], platform: 'linux' });
    expect(env.MY_TOOL_TOKEN).toBe('tool');
    expect(Object.keys(env)).not.toContain('SERVICE_BOARD_TOKEN');
    expect(Object.keys(env)).not.toContain('SERVICE_HOME');
    expect(Object.keys(env)).not.toContain('NOT_SET');
  });

  it('sets the run variables and the configured env last', () => {
    const env = buildAgentEnv({ source, extra: { SERVICE_RUN_ID: 'r1', HOME: '/tmp/agent-home' }, platform: 'linux' });
    expect(env).toMatchObject({ SERVICE_RUN_ID: 'r1', HOME: '/tmp/agent-home' });
  });

  it('gives Windows programs what they need to start, matching names case-insensitively', () => {
    const env = buildAgentEnv({ source: { SystemRoot: 'C:\\Windows', Path: 'C:\\bin', ComSpec: 'cmd.exe', My_Tool_Token: 'x', SERVICE_BOARD_TOKEN: 'hcb' }, inherit: ['MY_TOOL_TOKEN'], platform: 'win32' });
    expect(env).toEqual({ SystemRoot: 'C:\\Windows', Path: 'C:\\bin', ComSpec: 'cmd.exe', My_Tool_Token: 'x' });
  });
});

describe('sandbox policy', () => {
  const policy = { hidden: ['/data/home'], stateDirs: ['.claude/', '$CODEX_HOME/', '$UNSET/'] };

  it('resolves state paths under HOME or the folder a variable names', () => {
    expect(statePaths({ HOME: '/h', CODEX_HOME: '/c' }, policy.stateDirs)).toEqual(['/h/.claude/', '/c/']);
  });

  it('bwrap: everything read-only, the data home hidden, each mount after the folders that contain it', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'hc-bwrap-args-'));
    try {
      // A cwd inside the hidden data home stays visible; a data home inside a writable folder stays hidden.
      mkdirSync(path.join(root, 'home', 'work'), { recursive: true });
      mkdirSync(path.join(root, 'shared', 'home2'), { recursive: true });
      const { command, args } = bwrapCommand({
        command: 'claude',
        args: ['-p'],
        cwd: path.join(root, 'home', 'work'),
        env: { HOME: root },
        scratchDir: path.join(root, 'shared'),
        policy: { hidden: [path.join(root, 'home'), path.join(root, 'shared', 'home2')], stateDirs: [] },
      });
      expect(command).toBe('bwrap');
      expect(args.slice(0, 3)).toEqual(['--ro-bind', '/', '/']);
      for (const flag of ['--unshare-pid', '--die-with-parent', '--new-session']) expect(args).toContain(flag);
      expect(args).not.toContain('--unshare-net');
      expect(args.slice(-3)).toEqual(['--', 'claude', '-p']);
      const at = (flag: string, p: string) => args.findIndex((a, i) => a === flag && args[i + 1] === p);
      expect(at('--tmpfs', path.join(root, 'home'))).toBeGreaterThan(at('--tmpfs', '/tmp'));
      expect(at('--bind', path.join(root, 'home', 'work'))).toBeGreaterThan(at('--tmpfs', path.join(root, 'home')));
      expect(at('--tmpfs', path.join(root, 'shared', 'home2'))).toBeGreaterThan(at('--bind', path.join(root, 'shared')));
      expect(at('--remount-ro', path.join(root, 'home'))).toBeGreaterThan(at('--bind', path.join(root, 'home', 'work')));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('an install under /tmp', () => {
  it('is bound back read-only over the private /tmp, with a data home inside it still hidden; elsewhere nothing is added', () => {
    const install = mkdtempSync(path.join(os.tmpdir(), 'hc-bwrap-install-'));
    try {
      mkdirSync(path.join(install, '.service-dev'), { recursive: true });
      const home = path.join(install, '.service-dev');
      const { args } = bwrapCommand({ command: 'node', args: [], cwd: install, env: {}, scratchDir: install, policy: { hidden: [home], stateDirs: [], readable: [install, '/usr'] } });
      const at = (flag: string, p: string) => args.findIndex((a, i) => a === flag && args[i + 1] === p);
      const real = realpathSync(install);
      expect(at('--ro-bind', real)).toBeGreaterThan(at('--tmpfs', '/tmp'));
      expect(at('--tmpfs', realpathSync(home))).toBeGreaterThan(at('--ro-bind', real));
      // Outside /tmp the root's read-only mount already shows it.
      expect(at('--ro-bind', '/usr')).toBe(-1);
    } finally {
      rmSync(install, { recursive: true, force: true });
    }
  });
});

describe('a cwd that is the data home itself', () => {
  it('is not bound back: the agent works in an empty, read-only folder', () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'hc-bwrap-home-'));
    try {
      const { args } = bwrapCommand({ command: 'sh', args: [], cwd: home, env: {}, scratchDir: home, policy: { hidden: [home], stateDirs: [] } });
      expect(args.filter((a, i) => a === '--bind' && args[i + 1] === home)).toEqual([]);
      expect(args.filter((a, i) => a === '--tmpfs' && args[i + 1] === home)).toHaveLength(1);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('seatbeltProfile (macOS)', () => {
  const profile = seatbeltProfile({ cwd: '/Users/me/work', env: { HOME: '/Users/me', CODEX_HOME: '/Users/me/codex "x"' }, scratchDir: '/private/tmp/run-1', policy: { hidden: ['/Users/me/.service'], stateDirs: ['.claude/', '$CODEX_HOME/'] } });
  const lines = profile.trim().split('\n');

  it('denies reading the data home and every write, then allows the run its own paths', () => {
    expect(lines[0]).toBe('(version 1)');
    const denyHome = lines.indexOf('(deny file-read* file-write* (subpath "/Users/me/.service"))');
    const denyWrites = lines.indexOf('(deny file-write*)');
    const allowCwd = lines.indexOf('(allow file-read* file-write* (subpath "/Users/me/work"))');
    expect(denyHome).toBeGreaterThan(0);
    // The last matching rule wins: the exceptions come after the denials.
    expect(allowCwd).toBeGreaterThan(denyWrites);
    expect(lines).toContain('(allow file-read* file-write* (subpath "/private/tmp/run-1"))');
    expect(lines).toContain('(allow file-read* file-write* (subpath "/Users/me/.claude/"))');
  });

  it('escapes quotes in paths and keeps the keychain services out of reach', () => {
    expect(profile).toContain('(subpath "/Users/me/codex \\"x\\"/")');
    expect(profile).toMatch(/\(deny mach-lookup \(global-name "com\.apple\.SecurityServer"\)/);
  });
});
