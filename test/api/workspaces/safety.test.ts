import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCompany, startCore, tempHome, type TestCore } from '../../helpers/core.js';
import { founderRepo, runOn, sh, shellAgent } from './helpers.js';

let t: TestCore;
let companyId: string;
let repo: string;
let projectId: string;
beforeEach(async () => {
  t = await startCore();
  companyId = await createCompany(t);
  repo = founderRepo();
  projectId = (await t.api('POST', `/api/companies/${companyId}/projects`, { body: { name: 'App', workspace: { repoPath: repo } } })).body.id;
});
afterEach(async () => {
  await t.close();
});

const issue = async (title: string) => (await t.api('POST', `/api/companies/${companyId}/issues`, { body: { title, status: 'todo', projectId } })).body as { id: string; identifier: string };

describe('the server\'s git commands on an agent\'s clone', () => {
  it('run no filter, hook, fsmonitor or diff driver the agent configured, and restore its repository settings', async () => {
    const marker = path.join(mkdtempSync(path.join(os.tmpdir(), 'headcount-marker-')), 'ran');
    const i = await issue('Tamper');
    // The agent plants commands in its clone's config and attributes, then leaves a modified file
    // so that status and diff would need the filter.
    const script = `set -e
git config filter.evil.clean "touch ${marker}; cat"
git config filter.evil.process "touch ${marker}"
git config core.fsmonitor "touch ${marker}; true"
git config diff.evil.textconv "touch ${marker}; cat"
git config diff.external "touch ${marker}"
git config core.hooksPath .git/hooks
mkdir -p .git/hooks && printf '#!/bin/sh\\ntouch ${marker}\\n' > .git/hooks/post-merge && chmod +x .git/hooks/post-merge
echo '* filter=evil diff=evil' > .gitattributes
echo changed > README.md
git -c filter.evil.clean=cat -c filter.evil.process= add .gitattributes README.md
git -c filter.evil.clean=cat -c filter.evil.process= -c core.fsmonitor=false -c core.hooksPath=/dev/null commit -qm tamper
echo again >> README.md`;
    const agent = await shellAgent(t, companyId, 'mallory', script);
    expect((await runOn(t, companyId, agent.id, i.id)).status).toBe('succeeded');
    // What the agent's own git commands ran is its business; from here on only the server runs git.
    rmSync(marker, { force: true });
    const ws = await t.api('GET', `/api/issues/${i.id}/workspace`);
    expect(ws.status, ws.text).toBe(200);
    expect(ws.body).toMatchObject({ dirty: true, ahead: 1 });
    expect((await t.api('GET', `/api/issues/${i.id}/workspace/diff`)).body.diff).toContain('+changed');
    const merged = await t.api('POST', `/api/issues/${i.id}/workspace/merge`);
    expect(merged.status, merged.text).toBe(200);
    expect(existsSync(marker)).toBe(false);
    const config = readFileSync(path.join(ws.body.path, '.git', 'config'), 'utf8');
    expect(config).not.toContain('evil');
    expect(config).not.toContain('fsmonitor');
    const actions = ((await t.api('GET', `/api/companies/${companyId}/activity?limit=100`)).body.items as any[]).map((e) => e.action);
    expect(actions).toContain('workspace.config_restored');
    // The founder's repository got the agent's commit, none of its settings.
    expect(sh(repo, 'config', '--list', '--local')).not.toContain('evil');
    expect(existsSync(path.join(repo, '.git', 'hooks', 'post-merge'))).toBe(false);
  });

  it('a redirected .git answers 409 workspace_tampered and runs nothing there', async () => {
    const i = await issue('Redirect');
    const agent = await shellAgent(t, companyId, 'oscar', 'rm -rf .git && echo "gitdir: /tmp" > .git');
    expect((await runOn(t, companyId, agent.id, i.id)).status).toBe('succeeded');
    const res = await t.api('GET', `/api/issues/${i.id}/workspace`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('workspace_tampered');
  });
});

describe('runs of one issue', () => {
  it('never overlap in its clone, even from two agents', async () => {
    const i = await issue('Shared');
    // Both runs work in the issue's one clone (under the sandbox it is the only place both can write).
    const script = (name: string) => `echo start-${name} >> .order; sleep 0.4; echo end-${name} >> .order`;
    const [x, y] = [await shellAgent(t, companyId, 'xavier', script('x')), await shellAgent(t, companyId, 'yvonne', script('y'))];
    const runs = await Promise.all([runOn(t, companyId, x.id, i.id), runOn(t, companyId, y.id, i.id)]);
    expect(runs.map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
    const ws = (await t.api('GET', `/api/issues/${i.id}/workspace`)).body;
    const lines = readFileSync(path.join(ws.path, '.order'), 'utf8').trim().split('\n');
    expect([lines.join(' ')]).toContain(lines[0] === 'start-x' ? 'start-x end-x start-y end-y' : 'start-y end-y start-x end-x');
  });
});

describe('crash-safe creation', () => {
  it('removes a half-made clone at the next start and builds the workspace anew', async () => {
    const home = tempHome();
    await t.close();
    const leftover = path.join(home, 'worktrees', companyId, 'ACME-1.partial');
    mkdirSync(path.join(leftover, '.git'), { recursive: true });
    writeFileSync(path.join(leftover, 'junk'), 'x');
    t = await startCore({ home });
    expect(existsSync(leftover)).toBe(false);
  });
});
