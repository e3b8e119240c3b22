import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { waitForRun } from '../heartbeat/helpers.js';
import { lastToolResult, startAnthropicScriptServer, type AnthropicScriptServer, type ScriptTurn } from '../../fixtures/model-servers/anthropic.js';
import { sandboxAvailable } from './sandbox.js';

const CLAUDE = path.resolve(import.meta.dirname, '../../../node_modules/.bin/claude');
const BOARD_TOKEN = `hcb_claude-confined-${randomUUID()}`;

let t: TestCore | undefined;
let server: AnthropicScriptServer | undefined;
const temps: string[] = [];
let savedToken: string | undefined;
afterEach(async () => {
  await t?.close();
  await server?.close();
  t = undefined;
  server = undefined;
  if (savedToken === undefined) delete process.env.SERVICE_BOARD_TOKEN;
  else process.env.SERVICE_BOARD_TOKEN = savedToken;
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  temps.push(dir);
  return dir;
};
const bash = (command: string): ScriptTurn => ({ blocks: [{ type: 'tool_use', name: 'Bash', input: { command, description: 'probe' } }], usage: { input: 100, output: 10 } });

describe.skipIf(!sandboxAvailable())('the real Claude Code CLI inside the sandbox', () => {
  it('writes its cwd and calls the API with its run token, but reads no data-home file, sees no board token and writes nowhere else', async () => {
    savedToken = process.env.SERVICE_BOARD_TOKEN;
    process.env.SERVICE_BOARD_TOKEN = BOARD_TOKEN;
    t = await startCore({ boardToken: BOARD_TOKEN });
    temps.push(t.home);
    writeFileSync(path.join(t.home, 'master-key'), 'decoy-master-key');
    const home = tempDir('hc-claude-home-');
    const work = tempDir('hc-claude-work-');
    const results: string[] = [];
    const probes = [
      `cat ${t.home}/master-key ${t.home}/service.db ${t.home}/service.db-wal 2>&1 | head -c 300; ls -A ${t.home} ${t.home}/runs 2>&1`,
      `env; cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n' | grep -c SERVICE_BOARD_TOKEN`,
      `echo planted > /etc/hc-planted 2>&1; echo planted > ${os.homedir()}/hc-planted 2>&1; echo planted > ${t.home}/hc-planted 2>&1; echo mine > written.txt && echo WROTE-CWD`,
      `curl -sS -H "Authorization: Bearer $SERVICE_API_KEY" -H "X-Service-Run-Id: $SERVICE_RUN_ID" "$SERVICE_API_URL/api/agents/me"`,
    ];
    server = await startAnthropicScriptServer([
      bash(probes[0]!),
      (req) => {
        results.push(lastToolResult(req));
        return bash(probes[1]!);
      },
      (req) => {
        results.push(lastToolResult(req));
        return bash(probes[2]!);
      },
      (req) => {
        results.push(lastToolResult(req));
        return bash(probes[3]!);
      },
      (req) => {
        results.push(lastToolResult(req));
        return { blocks: [{ type: 'text', text: 'Probed.' }], usage: { input: 10, output: 2 } };
      },
    ]);
    const company = await createCompany(t);
    const created = await t.api('POST', `/api/companies/${company}/agents`, {
      body: {
        name: 'Confined Claude',
        role: 'engineer',
        adapterType: 'vendor_a_local',
        adapterConfig: {
          command: CLAUDE,
          cwd: work,
          allowedTools: ['Bash'],
          timeoutSec: 120,
          env: {
            HOME: home,
            CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
            ANTHROPIC_BASE_URL: server.url,
            ANTHROPIC_API_KEY: 'sk-ant-scripted-test',
            DISABLE_TELEMETRY: '1',
            DISABLE_ERROR_REPORTING: '1',
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
            CLAUDE_CODE_MAX_RETRIES: '0',
          },
        },
      },
    });
    expect(created.status).toBe(201);
    const agent = created.body;
    expect((await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { body: {} })).status).toBe(202);
    const run = await waitForRun(t, company, agent.id, undefined, 90_000);
    expect(run).toMatchObject({ status: 'succeeded', summary: 'Probed.' });
    expect(results).toHaveLength(4);
    const [reads, env, writes, me] = results as [string, string, string, string];
    // The data home is an empty folder: no key, no database, no transcripts.
    expect(reads).not.toContain('decoy-master-key');
    expect(reads).not.toContain('SQLite format');
    expect(reads).toMatch(/No such file or directory/);
    // No board token under any name: not in its env, not in any process it can see.
    expect(env).not.toContain(BOARD_TOKEN);
    expect(env).not.toMatch(/^SERVICE_HOME=/m);
    expect(env.trim().split('\n').at(-1)).toBe('0');
    expect(env).toContain(`SERVICE_RUN_ID=${run.id}`);
    // Writes: its cwd only.
    expect(writes).toContain('WROTE-CWD');
    expect(writes.match(/Read-only file system/g)?.length).toBe(3);
    expect(readFileSync(path.join(work, 'written.txt'), 'utf8')).toBe('mine\n');
    // The loopback API answers its run token.
    expect(JSON.parse(me)).toMatchObject({ id: agent.id, name: 'Confined Claude' });
  }, 120_000);
});
