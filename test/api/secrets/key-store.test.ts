import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createCompany, startCore, tempHome, type TestCore } from '../../helpers/core.js';
import { fileKeyProvider } from '../../../main/core/secrets/master-key.js';
import { CLI, ROOT, requireBuiltCli } from '../durability/serve-process.js';
import { capturingLogger, createSecret, ref } from './helpers.js';

const homes: string[] = [];
let t: TestCore | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});
const newHome = () => {
  const h = tempHome('headcount-keystore-');
  homes.push(h);
  return h;
};

/** The CLI as a user runs it. Without a session bus there is no keychain, so it picks the key file. */
function cli(args: string[], home: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, SERVICE_HOME: home };
  delete env.SERVICE_BOARD_TOKEN;
  delete env.DBUS_SESSION_BUS_ADDRESS;
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, env, encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the key store as the board sees it', () => {
  it('logs the key-file warning at start and reports it at GET /api/system/status', async () => {
    const home = newHome();
    const logger = capturingLogger();
    t = await startCore({ home, keyProvider: fileKeyProvider(home), logger });
    expect(logger.lines.some((l) => l.startsWith('warn No OS keychain is available'))).toBe(true);
    const status = await t.api('GET', '/api/system/status');
    expect(status.status).toBe(200);
    expect(status.body.keyProvider).toEqual({
      kind: 'file',
      description: expect.stringContaining('master-key'),
      warning: expect.stringMatching(/No OS keychain is available: the master key is stored in .*master-key \(mode 0600\)/),
    });
  });
});

describe('headcount secrets rotate-master-key (built CLI)', () => {
  it('rotates a stopped home, and refuses while the server runs', async () => {
    requireBuiltCli();
    const home = newHome();
    const provider = fileKeyProvider(home);
    t = await startCore({ home, keyProvider: provider });
    const companyId = await createCompany(t);
    const s = await createSecret(t, companyId, 'TOKEN', 'cli-rotated-value');

    const busy = cli(['secrets', 'rotate-master-key'], home);
    expect(busy.status).toBe(1);
    expect(busy.stderr).toMatch(/headcount: .*service\.db is in use by another process \(is the Headcount server running\?\)/);
    await t.close();
    t = undefined;

    const done = cli(['secrets', 'rotate-master-key'], home);
    expect(done.stderr).toMatch(/No OS keychain is available/);
    expect(done.stdout).toMatch(/^Re-encrypted 1 secret version\(s\) under a new master key \(generation 1 -> 2\), stored in key file .*master-key/);
    expect(done.status).toBe(0);
    expect(done.stdout + done.stderr).not.toContain('cli-rotated-value');

    t = await startCore({ home, keyProvider: provider });
    expect((await t.core.services.secrets.resolveSecretRef(companyId, ref(s.id))).value).toBe('cli-rotated-value');
  });
});
