import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { readLog } from '../heartbeat/helpers.js';
import { founderRepo, runOn, sh, shellAgent } from './helpers.js';

let t: TestCore;
let companyId: string;
let repo: string;
beforeEach(async () => {
  t = await startCore();
  companyId = await createCompany(t);
  repo = founderRepo();
});
afterEach(async () => {
  await t.close();
});

async function project(body: Record<string, unknown> = { workspace: { repoPath: repo } }) {
  const res = await t.api('POST', `/api/companies/${companyId}/projects`, { body: { name: 'App', ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function issue(projectId: string, title: string) {
  const res = await t.api('POST', `/api/companies/${companyId}/issues`, { body: { title, status: 'todo', projectId } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; identifier: string };
}

/** The founder's checkout as it matters here: branch tip, status and files. */
const founderState = () => ({ head: sh(repo, 'rev-parse', 'HEAD'), branches: sh(repo, 'for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads'), status: sh(repo, 'status', '--porcelain'), stash: sh(repo, 'stash', 'list') });

describe('project workspace setting', () => {
  it('takes an absolute path to a repository top folder, defaults the base branch to the checked-out one', async () => {
    sh(repo, 'switch', '-q', '-c', 'develop');
    const p = await project();
    expect(p.workspace).toEqual({ repoPath: repo, baseBranch: 'develop' });
    expect(p.setupCommand).toBeNull();
    const patched = await t.api('PATCH', `/api/projects/${p.id}`, { body: { workspace: { repoPath: repo, baseBranch: 'main' }, setupCommand: 'true' } });
    expect(patched.body).toMatchObject({ workspace: { repoPath: repo, baseBranch: 'main' }, setupCommand: 'true' });
    expect((await t.api('PATCH', `/api/projects/${p.id}`, { body: { workspace: null } })).body.workspace).toBeNull();
  });

  it('answers 400 invalid_workspace with the reason and writes nothing', async () => {
    const plain = mkdtempSync(path.join(os.tmpdir(), 'headcount-plain-'));
    mkdirSync(path.join(repo, 'sub'));
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ repoPath: 'relative/repo' }, /not an absolute path/],
      [{ repoPath: path.join(plain, 'missing') }, /does not exist/],
      [{ repoPath: plain }, /not a git repository/],
      [{ repoPath: path.join(repo, 'sub') }, /inside the repository/],
      [{ repoPath: repo, baseBranch: 'nope' }, /branch "nope" does not exist/],
      [{ repoPath: repo, baseBranch: '-x' }, /not a valid branch name/],
      [{ repoPath: t.home }, /inside Headcount's data folder/],
    ];
    const before = t.snapshot();
    for (const [workspace, reason] of cases) {
      const res = await t.api('POST', `/api/companies/${companyId}/projects`, { body: { name: 'Bad', workspace } });
      expect(res.status, JSON.stringify(workspace)).toBe(400);
      expect(res.body.code).toBe('invalid_workspace');
      expect(res.body.details.reason).toMatch(reason);
    }
    expect(t.snapshot()).toEqual(before);
  });

  it('lets only the board set a workspace or a setup command', async () => {
    const key = await createAgentKey(t, (await createAgent(t, companyId)).id);
    for (const body of [{ name: 'x', workspace: { repoPath: repo } }, { name: 'x', setupCommand: 'touch /tmp/pwned' }]) {
      const res = await t.api('POST', `/api/companies/${companyId}/projects`, { token: key, body });
      expect(res.status).toBe(403);
    }
  });
});

describe('issue workspaces', () => {
  const commitScript = `set -e
printf '%s\\n' "$SERVICE_WORKSPACE_BRANCH from $SERVICE_WORKSPACE_BASE_BRANCH" > "$SERVICE_TASK_ID.txt"
pwd >&2
git add "$SERVICE_TASK_ID.txt"
git commit -q -m "work on $SERVICE_TASK_ID"`;

  it('two issues run at once, each commits in its own clone; review, merge both, conflicts answer 409 and lose nothing', async () => {
    const p = await project({ workspace: { repoPath: repo }, setupCommand: 'echo setting up; touch .setup-done' });
    const [a, b] = [await issue(p.id, 'First'), await issue(p.id, 'Second')];
    const [agentA, agentB] = [await shellAgent(t, companyId, 'alice', commitScript), await shellAgent(t, companyId, 'bob', commitScript)];
    const before = founderState();
    const [runA, runB] = await Promise.all([runOn(t, companyId, agentA.id, a.id), runOn(t, companyId, agentB.id, b.id)]);
    expect([runA, runB].map((r) => `${r.status} ${r.errorCode} ${r.errorMessage}`)).toEqual(["succeeded null null", "succeeded null null"]);

    const wsA = (await t.api('GET', `/api/issues/${a.id}/workspace`)).body;
    const wsB = (await t.api('GET', `/api/issues/${b.identifier}/workspace`)).body;
    expect(wsA).toMatchObject({ branch: `headcount/${a.identifier}`, baseBranch: 'main', dirty: true, ahead: 1, behind: 0, files: [{ path: `${a.identifier}.txt`, status: 'added', additions: 1, deletions: 0 }] });
    expect(wsB.files).toEqual([{ path: `${b.identifier}.txt`, status: 'added', additions: 1, deletions: 0 }]);
    expect(wsA.path).not.toBe(wsB.path);
    expect(wsA.path.startsWith(t.home)).toBe(true);
    // The run's cwd was the clone, its env named branch and base, the setup ran once with its output in the transcript.
    const logA = (await readLog(t, runA.id)).map((r) => r.data).join('');
    expect(logA).toContain(wsA.path);
    expect(logA).toContain('setting up');
    expect(readFileSync(path.join(wsA.path, `${a.identifier}.txt`), 'utf8')).toBe(`headcount/${a.identifier} from main\n`);
    expect(existsSync(path.join(wsA.path, '.setup-done'))).toBe(true);
    // The founder's checkout, branches and stash are exactly as before.
    expect(founderState()).toEqual(before);

    const diff = (await t.api('GET', `/api/issues/${a.id}/workspace/diff`)).body;
    expect(diff.truncated).toBe(false);
    expect(diff.diff).toContain(`+++ b/${a.identifier}.txt`);
    expect(diff.diff).toContain(`+headcount/${a.identifier} from main`);

    // A second run of the same issue reuses the clone (the setup does not run again).
    const again = await runOn(t, companyId, agentA.id, a.id);
    expect(again.status).toBe('failed'); // nothing new to commit: `git commit` exits 1
    expect((await readLog(t, again.id)).map((r) => r.data).join('')).not.toContain('setting up');

    // Agents may look, not merge or discard.
    const key = await createAgentKey(t, agentA.id);
    expect((await t.api('GET', `/api/issues/${a.id}/workspace`, { token: key })).status).toBe(200);
    expect((await t.api('POST', `/api/issues/${a.id}/workspace/merge`, { token: key })).status).toBe(403);
    expect((await t.api('POST', `/api/issues/${a.id}/workspace/discard`, { token: key, body: { confirm: true } })).status).toBe(403);

    const first = await t.api('POST', `/api/issues/${a.id}/workspace/merge`);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ kind: 'fast_forward', previousSha: before.head, updatedCheckout: repo });
    const second = await t.api('POST', `/api/issues/${b.id}/workspace/merge`);
    expect(second.status, second.text).toBe(200);
    expect(second.body.kind).toBe('merge_commit');
    // Both commits are on main, the founder's files followed, and the checkout is clean.
    expect(sh(repo, 'log', '--format=%s', 'main')).toContain(`work on ${a.identifier}`);
    expect(sh(repo, 'log', '--format=%s', 'main')).toContain(`work on ${b.identifier}`);
    expect(readFileSync(path.join(repo, `${b.identifier}.txt`), 'utf8')).toBe(`headcount/${b.identifier} from main\n`);
    expect(sh(repo, 'status', '--porcelain')).toBe('');
    expect(sh(repo, 'rev-parse', `headcount/${a.identifier}`)).toBe(wsA.headSha);

    // A third change to shared.txt, while the founder also changed it: 409, nothing lost.
    const c = await issue(p.id, 'Third');
    const editor = await shellAgent(t, companyId, 'carol', `set -e; echo agent > shared.txt; git commit -qam "agent edits shared"`);
    expect((await runOn(t, companyId, editor.id, c.id)).status).toBe('succeeded');
    writeFileSync(path.join(repo, 'shared.txt'), 'founder\n');
    sh(repo, 'commit', '-qam', 'founder edits shared');
    const beforeConflict = founderState();
    const wsC = (await t.api('GET', `/api/issues/${c.id}/workspace`)).body;
    expect(wsC).toMatchObject({ ahead: 1, behind: 1 });
    const conflicted = await t.api('POST', `/api/issues/${c.id}/workspace/merge`);
    expect(conflicted.status).toBe(409);
    expect(conflicted.body).toMatchObject({ code: 'merge_conflict', details: { files: ['shared.txt'] } });
    expect(founderState()).toEqual(beforeConflict);
    expect((await t.api('GET', `/api/issues/${c.id}/workspace`)).body.headSha).toBe(wsC.headSha);

    // A dirty checkout of the base branch refuses a merge that could otherwise go ahead.
    const d = await issue(p.id, 'Fourth');
    expect((await runOn(t, companyId, agentA.id, d.id)).status).toBe('succeeded');
    writeFileSync(path.join(repo, 'README.md'), '# founder is editing\n');
    const beforeDirty = founderState();
    const dirty = await t.api('POST', `/api/issues/${d.id}/workspace/merge`);
    expect(dirty.status).toBe(409);
    expect(dirty.body.code).toBe('base_checkout_dirty');
    expect(founderState()).toEqual(beforeDirty);
    expect(readFileSync(path.join(repo, 'README.md'), 'utf8')).toBe('# founder is editing\n');

    const actions = ((await t.api('GET', `/api/companies/${companyId}/activity?limit=200`)).body.items as any[]).map((e) => e.action);
    expect(actions.filter((x) => x === 'workspace.created')).toHaveLength(4);
    expect(actions.filter((x) => x === 'workspace.merged')).toHaveLength(2);
    expect(actions.filter((x) => x === 'workspace.merge_refused')).toHaveLength(2);
  });

  it('lists the branch\'s commits newest first, each with the run of the issue that made it', async () => {
    const p = await project();
    const i = await issue(p.id, 'Commits');
    const subject = `Say "hi" & 'bye' — ünïcødé ✓ | a|b %s`;
    const twoCommits = `set -e
echo one > one.txt; git add one.txt; git commit -q -m "first of the run"
echo two > two.txt; git add two.txt
git commit -q -F - <<'EOF'
${subject}

A body line that is not the subject.
EOF`;
    const first = await runOn(t, companyId, (await shellAgent(t, companyId, 'frank', twoCommits)).id, i.id);
    expect(first.status).toBe('succeeded');
    const ws = (await t.api('GET', `/api/issues/${i.id}/workspace`)).body;
    // The founder commits by hand in the clone, dated outside every run.
    writeFileSync(path.join(ws.path, 'hand.txt'), 'by hand\n');
    sh(ws.path, 'add', 'hand.txt');
    const date = '2001-02-03T04:05:06Z';
    execFileSync('git', ['-c', 'user.name=Founder', '-c', 'user.email=founder@example.com', '-c', 'core.hooksPath=/dev/null', 'commit', '-qm', 'by hand'], {
      cwd: ws.path,
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
    });
    // Git keeps whole seconds: like a real agent, this one works a while before it commits, so its
    // commit falls in a later second than the end of the first run.
    const second = await runOn(t, companyId, (await shellAgent(t, companyId, 'grace', 'set -e; sleep 1; echo three > three.txt; git add three.txt; git commit -qm "second run"')).id, i.id);
    expect(second.status).toBe('succeeded');

    const after = (await t.api('GET', `/api/issues/${i.id}/workspace`)).body;
    expect(after.ahead).toBe(4);
    expect(after.commits.map((c: any) => [c.subject, c.authorName, c.runId])).toEqual([
      ['second run', 'grace', second.id],
      ['by hand', 'Founder', null],
      [subject, 'frank', first.id],
      ['first of the run', 'frank', first.id],
    ]);
    const [latest, byHand] = after.commits;
    expect(latest.sha).toBe(after.headSha);
    expect(latest.sha.startsWith(latest.shortSha)).toBe(true);
    expect(byHand.committedAt).toBe('2001-02-03T04:05:06.000Z');
    expect(Date.parse(latest.committedAt)).toBeGreaterThanOrEqual(Math.floor(Date.parse(second.startedAt) / 1000) * 1000);
  });

  it('discard needs confirmation while the clone holds uncommitted or unmerged work', async () => {
    const p = await project();
    const i = await issue(p.id, 'Scratch');
    const agent = await shellAgent(t, companyId, 'dave', 'echo draft > notes.txt');
    expect((await runOn(t, companyId, agent.id, i.id)).status).toBe('succeeded');
    const ws = (await t.api('GET', `/api/issues/${i.id}/workspace`)).body;
    expect(ws).toMatchObject({ dirty: true, ahead: 0, files: [] });
    const refused = await t.api('POST', `/api/issues/${i.id}/workspace/discard`, { body: {} });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'workspace_has_work', details: { dirty: true, ahead: 0 } });
    expect(readFileSync(path.join(ws.path, 'notes.txt'), 'utf8')).toBe('draft\n');
    const done = await t.api('POST', `/api/issues/${i.id}/workspace/discard`, { body: { confirm: true } });
    expect(done.status).toBe(200);
    expect(existsSync(ws.path)).toBe(false);
    expect((await t.api('GET', `/api/issues/${i.id}/workspace`)).status).toBe(404);
  });

  it('keeps the configured cwd for issues without a workspace', async () => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'headcount-cwd-'));
    const plain = (await t.api('POST', `/api/companies/${companyId}/projects`, { body: { name: 'No repo' } })).body;
    const i = await issue(plain.id, 'Elsewhere');
    const agent = await shellAgent(t, companyId, 'erin', 'pwd > here.txt', { cwd });
    expect((await runOn(t, companyId, agent.id, i.id)).status).toBe('succeeded');
    expect(readFileSync(path.join(cwd, 'here.txt'), 'utf8').trim()).toBe(cwd);
    expect((await t.api('GET', `/api/issues/${i.id}/workspace`)).status).toBe(404);
  });
});
