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
});
