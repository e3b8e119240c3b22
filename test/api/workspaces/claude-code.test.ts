import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentCli } from '../../helpers/agent-clis.js';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { startAnthropicScriptServer, type AnthropicScriptServer } from '../../fixtures/model-servers/anthropic.js';
import { founderRepo, runOn, sh } from './helpers.js';

const CLAUDE = agentCli('claude');

let t: TestCore | undefined;
const servers: AnthropicScriptServer[] = [];
const temps: string[] = [];
afterEach(async () => {
  await t?.close();
  t = undefined;
  for (const s of servers.splice(0)) await s.close();
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A scripted model whose one tool call writes and commits `file` in the run's cwd. */
async function committingModel(file: string) {
  const server = await startAnthropicScriptServer([
    {
      blocks: [{ type: 'tool_use', name: 'Bash', input: { command: `printf 'from claude\\n' > ${file} && git add ${file} && git -c user.name=Claude -c user.email=claude@agents.test commit -qm "add ${file}" && git rev-parse --abbrev-ref HEAD`, description: 'Commit the work' } }],
      usage: { input: 200, output: 30 },
    },
    { blocks: [{ type: 'text', text: `Committed ${file}.` }], usage: { input: 100, output: 10 } },
  ]);
  servers.push(server);
  return server;
}

describe('workspaces with the real Claude Code CLI', () => {
  it('two agents on two issues at once each commit in their own clone; both merge into the base branch', async () => {
    const repo = founderRepo();
    temps.push(repo);
    t = await startCore();
    const company = await createCompany(t);
    const projectId = (await t.api('POST', `/api/companies/${company}/projects`, { body: { name: 'App', workspace: { repoPath: repo } } })).body.id;
    const agents = [];
    for (const [name, file] of [['Ada', 'ada.txt'], ['Bo', 'bo.txt']] as const) {
      const server = await committingModel(file);
      const home = mkdtempSync(path.join(os.tmpdir(), 'hc-claude-home-'));
      temps.push(home);
      const created = await t.api('POST', `/api/companies/${company}/agents`, {
        body: {
          name,
          role: 'engineer',
          adapterType: 'vendor_a_local',
          adapterConfig: {
            command: CLAUDE,
            allowedTools: ['Bash'],
            timeoutSec: 120,
            env: { HOME: home, CLAUDE_CONFIG_DIR: path.join(home, '.claude'), ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'sk-ant-scripted-test', DISABLE_TELEMETRY: '1', DISABLE_ERROR_REPORTING: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', CLAUDE_CODE_MAX_RETRIES: '0', GIT_CONFIG_GLOBAL: '/dev/null' },
          },
        },
      });
      expect(created.status, created.text).toBe(201);
      agents.push({ id: created.body.id as string, file });
    }
    const issues: { id: string; identifier: string }[] = [];
    for (const title of ['Ada\'s task', 'Bo\'s task']) issues.push((await t.api('POST', `/api/companies/${company}/issues`, { body: { title, status: 'todo', projectId } })).body);
    const before = sh(repo, 'rev-parse', 'HEAD');
    const runs = await Promise.all(agents.map((a, i) => runOn(t!, company, a.id, issues[i]!.id)));
    expect(runs.map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
    for (const [i, a] of agents.entries()) {
      const ws = (await t.api('GET', `/api/issues/${issues[i]!.id}/workspace`)).body;
      expect(ws.files).toEqual([{ path: a.file, status: 'added', additions: 1, deletions: 0 }]);
      expect(ws).toMatchObject({ branch: `headcount/${issues[i]!.identifier}`, ahead: 1, dirty: false });
      expect(runs[i].sessionParams.cwd).toBe(ws.path);
    }
    // Untouched until the merge.
    expect(sh(repo, 'rev-parse', 'HEAD')).toBe(before);
    expect(sh(repo, 'status', '--porcelain')).toBe('');
    for (const i of issues) expect((await t.api('POST', `/api/issues/${i.id}/workspace/merge`)).status).toBe(200);
    expect(sh(repo, 'ls-tree', '--name-only', 'main').split('\n')).toEqual(expect.arrayContaining(['ada.txt', 'bo.txt']));
    expect(sh(repo, 'status', '--porcelain')).toBe('');
  }, 180_000);
});
