import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentCli } from '../../helpers/agent-clis.js';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { startAnthropicScriptServer, type AnthropicScriptServer } from '../../fixtures/model-servers/anthropic.js';
import { founderRepo, runOn, sh } from './helpers.js';
import { sandboxAvailable } from '../confinement/sandbox.js';

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

/** A scripted model whose tool calls run each command in turn through Claude Code's Bash tool. */
async function scriptedModel(commands: string[]) {
  const server = await startAnthropicScriptServer([
    ...commands.map((command, i) => ({ blocks: [{ type: 'tool_use' as const, name: 'Bash', input: { command, description: `Step ${i + 1}` } }], usage: { input: 200, output: 30 } })),
    { blocks: [{ type: 'text' as const, text: 'Done.' }], usage: { input: 100, output: 10 } },
  ]);
  servers.push(server);
  return server;
}

async function claudeAgent(core: TestCore, company: string, name: string, serverUrl: string): Promise<string> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hc-claude-home-'));
  temps.push(home);
  const created = await core.api('POST', `/api/companies/${company}/agents`, {
    body: {
      name,
      role: 'engineer',
      adapterType: 'vendor_a_local',
      adapterConfig: {
        command: CLAUDE,
        allowedTools: ['Bash'],
        timeoutSec: 120,
        env: { HOME: home, CLAUDE_CONFIG_DIR: path.join(home, '.claude'), ANTHROPIC_BASE_URL: serverUrl, ANTHROPIC_API_KEY: 'sk-ant-scripted-test', DISABLE_TELEMETRY: '1', DISABLE_ERROR_REPORTING: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', CLAUDE_CODE_MAX_RETRIES: '0', GIT_CONFIG_GLOBAL: '/dev/null' },
      },
    },
  });
  expect(created.status, created.text).toBe(201);
  return created.body.id as string;
}

describe.runIf(sandboxAvailable())('a hostile change made through the real Claude Code CLI', () => {
  it('a conflicting commit answers 409 and loses nothing; uncommitted work survives a discard without confirm; hooks, config and refs of the founder stay untouched', async () => {
    const repo = founderRepo();
    temps.push(repo);
    const founder = () => ({
      refs: sh(repo, 'for-each-ref', '--format=%(refname) %(objectname)'),
      config: readFileSync(path.join(repo, '.git', 'config'), 'utf8'),
      hook: existsSync(path.join(repo, '.git', 'hooks', 'post-merge')),
      status: sh(repo, 'status', '--porcelain'),
    });
    t = await startCore();
    const company = await createCompany(t);
    const projectId = (await t.api('POST', `/api/companies/${company}/projects`, { body: { name: 'App', workspace: { repoPath: repo } } })).body.id;
    const git = 'git -c user.name=Claude -c user.email=claude@agents.test';
    const server = await scriptedModel([
      // A change to a file the founder changes too, committed on the issue's branch.
      `printf 'from claude\n' > shared.txt && ${git} commit -qam "claude's shared.txt" && echo committed`,
      // Out of its clone, into the founder's repository: a hook, a config entry, another ref.
      `F=$(git config --get remote.origin.url); printf '#!/bin/sh\ntouch "$F/PWNED"\n' > "$F/.git/hooks/post-merge" 2>/dev/null; echo "hook:$?"; git -C "$F" config --local core.hooksPath /tmp 2>/dev/null; echo "config:$?"; git -C "$F" update-ref refs/heads/sneaky HEAD 2>/dev/null; echo "ref:$?"; git push -q origin HEAD:refs/heads/main 2>/dev/null; echo "push:$?"`,
      // Work in progress, never committed.
      `printf 'draft\n' > draft.txt && echo drafted`,
    ]);
    const agent = await claudeAgent(t, company, 'Mallory', server.url);
    const issue = (await t.api('POST', `/api/companies/${company}/issues`, { body: { title: 'Risky change', status: 'todo', projectId } })).body;
    const run = await runOn(t, company, agent, issue.id);
    expect(run.status).toBe('succeeded');
    // Every step out of the clone failed inside the sandbox (the tool results Claude Code sent back).
    const results = server.requests.map((r) => JSON.stringify(r)).join('\n');
    expect(results).toContain('committed');
    expect(results).toContain('drafted');
    for (const step of ['hook', 'config', 'ref', 'push']) expect(results).toMatch(new RegExp(`${step}:[1-9]`));
    // The founder changes the same file on main meanwhile.
    writeFileSync(path.join(repo, 'shared.txt'), 'from the founder\n');
    sh(repo, '-c', 'user.name=Founder', '-c', 'user.email=founder@example.test', 'commit', '-qam', "founder's shared.txt");
    const before = founder();
    expect(before.hook).toBe(false);

    const ws = (await t.api('GET', `/api/issues/${issue.id}/workspace`)).body;
    expect(ws).toMatchObject({ ahead: 1, dirty: true });
    expect(ws.files.map((f: { path: string }) => f.path)).toContain('shared.txt');
    const conflicted = await t.api('POST', `/api/issues/${issue.id}/workspace/merge`);
    expect(conflicted.status, conflicted.text).toBe(409);
    expect(founder()).toEqual(before);
    const refused = await t.api('POST', `/api/issues/${issue.id}/workspace/discard`, { body: {} });
    expect(refused.status, refused.text).toBe(409);
    expect(readFileSync(path.join(ws.path, 'draft.txt'), 'utf8')).toBe('draft\n');
    expect((await t.api('GET', `/api/issues/${issue.id}/workspace`)).body).toMatchObject({ ahead: 1, dirty: true });
    expect(founder()).toEqual(before);
    expect(existsSync(path.join(repo, 'PWNED'))).toBe(false);
  }, 180_000);
});

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
      agents.push({ id: await claudeAgent(t, company, name, server.url), file });
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
