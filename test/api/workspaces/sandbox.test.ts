import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { readLog } from '../heartbeat/helpers.js';
import { sandboxAvailable } from '../confinement/sandbox.js';
import { founderRepo, runOn, sh, shellAgent } from './helpers.js';

let t: TestCore | undefined;
const temps: string[] = [];
afterEach(async () => {
  await t?.close();
  t = undefined;
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The founder's repository, outside /tmp (the sandbox's /tmp is private to the run). */
function repoOutsideTmp(): string {
  const repo = founderRepo();
  temps.push(repo);
  return repo;
}

describe.runIf(sandboxAvailable())('a sandboxed agent in its workspace', () => {
  it('commits on its own branch and changes nothing else of the founder\'s repository: hooks, config, other refs, the checkout', async () => {
    const repo = repoOutsideTmp();
    const snapshot = () => ({
      refs: sh(repo, 'for-each-ref', '--format=%(refname) %(objectname)'),
      config: readFileSync(path.join(repo, '.git', 'config'), 'utf8'),
      hooks: existsSync(path.join(repo, '.git', 'hooks', 'post-commit')),
      readme: readFileSync(path.join(repo, 'README.md'), 'utf8'),
      status: sh(repo, 'status', '--porcelain'),
    });
    const before = snapshot();
    t = await startCore();
    const companyId = await createCompany(t);
    const projectId = (await t.api('POST', `/api/companies/${companyId}/projects`, { body: { name: 'App', workspace: { repoPath: repo } } })).body.id;
    const issue = (await t.api('POST', `/api/companies/${companyId}/issues`, { body: { title: 'Escape', status: 'todo', projectId } })).body;
    const script = `F=$(git config --get remote.origin.url)
printf '#!/bin/sh\\necho pwned\\n' > "$F/.git/hooks/post-commit" 2>/dev/null; echo "hooks:$?"
git -C "$F" config --local evil.key yes 2>/dev/null; echo "config:$?"
git -C "$F" update-ref refs/heads/other HEAD 2>/dev/null; echo "ref:$?"
echo mine > mine.txt && git add mine.txt && git commit -qm mine; echo "commit:$?"
git push -q origin HEAD:refs/heads/main HEAD:refs/heads/sneaky 2>/dev/null; echo "push:$?"
echo more >> "$F/README.md" 2>/dev/null; echo "checkout:$?"`;
    const agent = await shellAgent(t, companyId, 'mallory', script);
    const run = await runOn(t, companyId, agent.id, issue.id);
    expect(run.status).toBe('succeeded');
    const out = (await readLog(t, run.id)).map((r) => r.data).join('');
    for (const step of ['hooks', 'config', 'ref', 'push', 'checkout']) expect(out).toMatch(new RegExp(`${step}:[1-9]`));
    expect(out).toContain('commit:0');
    expect(snapshot()).toEqual(before);
    const ws = (await t.api('GET', `/api/issues/${issue.id}/workspace`)).body;
    expect(ws.files).toEqual([{ path: 'mine.txt', status: 'added', additions: 1, deletions: 0 }]);
  }, 60_000);

  it("cannot list, read or write a colleague's workspace or another company's, though both exist on disk", async () => {
    const repo = repoOutsideTmp();
    t = await startCore();
    const project = async (companyId: string) => (await t!.api('POST', `/api/companies/${companyId}/projects`, { body: { name: 'App', workspace: { repoPath: repo } } })).body.id as string;
    const issueIn = async (companyId: string, projectId: string, title: string) => (await t!.api('POST', `/api/companies/${companyId}/issues`, { body: { title, status: 'todo', projectId } })).body as { id: string };
    const ours = await createCompany(t, 'Ours');
    const theirs = await createCompany(t, 'Theirs');
    const [ourProject, theirProject] = [await project(ours), await project(theirs)];
    // Two workspaces with a secret-looking file in each: a colleague's, and another company's.
    const writer = 'echo "private to $SERVICE_TASK_ID" > notes.txt';
    const colleagueIssue = await issueIn(ours, ourProject, 'Colleague');
    const foreignIssue = await issueIn(theirs, theirProject, 'Foreign');
    expect((await runOn(t, ours, (await shellAgent(t, ours, 'colleague', writer)).id, colleagueIssue.id)).status).toBe('succeeded');
    expect((await runOn(t, theirs, (await shellAgent(t, theirs, 'stranger', writer)).id, foreignIssue.id)).status).toBe('succeeded');
    const colleaguePath = (await t.api('GET', `/api/issues/${colleagueIssue.id}/workspace`)).body.path as string;
    const foreignPath = (await t.api('GET', `/api/issues/${foreignIssue.id}/workspace`)).body.path as string;
    for (const p of [colleaguePath, foreignPath]) expect(readFileSync(path.join(p, 'notes.txt'), 'utf8')).toMatch(/^private to /);

    const probe = (label: string, dir: string) =>
      `ls "${dir}" >/dev/null 2>&1; echo "${label}-ls:$?"; cat "${dir}/notes.txt" 2>/dev/null; echo "${label}-cat:$?"; echo x > "${dir}/planted.txt" 2>/dev/null; echo "${label}-write:$?"; echo "${label}-siblings:[$(ls "$(dirname "${dir}")" 2>/dev/null | tr '\\n' ' ')]"`;
    const mallory = await shellAgent(t, ours, 'mallory', `${probe('colleague', colleaguePath)}; ${probe('foreign', foreignPath)}`);
    const run = await runOn(t, ours, mallory.id, (await issueIn(ours, ourProject, 'Snoop')).id);
    expect(run.status).toBe('succeeded');
    const out = (await readLog(t, run.id)).map((r) => r.data).join('');
    for (const label of ['colleague', 'foreign']) {
      for (const step of ['ls', 'cat', 'write']) expect(out).toMatch(new RegExp(`${label}-${step}:[1-9]`));
    }
    // The folders holding the workspaces show neither of the others (only the snooper's own, bound back).
    const siblings = [...out.matchAll(/(colleague|foreign)-siblings:\[([^\]]*)\]/g)].map((m) => m[2]!);
    expect(siblings).toHaveLength(2);
    for (const listed of siblings) for (const p of [colleaguePath, foreignPath]) expect(listed).not.toContain(path.basename(p));
    expect(out).not.toContain('private to');
    for (const p of [colleaguePath, foreignPath]) expect(existsSync(path.join(p, 'planted.txt'))).toBe(false);
  }, 90_000);
});
