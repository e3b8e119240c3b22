import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { test, expect, shot } from './fixtures.js';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Founder', '-c', 'user.email=f@example.com', ...args], { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } }).trim();

test('issue workspace: changed files, commits and their runs, rendered diff, merge into the founder\'s branch', async ({ signedIn: page, board }) => {
  // Outside /tmp: the agent sandbox gives each run a private /tmp.
  const parent = path.join(homedir(), '.cache', 'headcount-tests');
  mkdirSync(parent, { recursive: true });
  const repo = mkdtempSync(path.join(parent, 'e2e-repo-'));
  git(repo, 'init', '-q', '-b', 'main');
  writeFileSync(path.join(repo, 'app.js'), 'console.log("hello");\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'initial');
  const company = await board.api<{ id: string }>('POST', '/api/companies', { name: 'Initech' });
  const project = await board.api<{ id: string }>('POST', `/api/companies/${company.id}/projects`, { name: 'App', workspace: { repoPath: repo } });
  const script = 'set -e; printf \'console.log("hello, world");\\n\' > app.js; printf "# Notes\\n" > NOTES.md; git add -A; git commit -qm "Greet the world"';
  const agent = await board.api<{ id: string }>('POST', `/api/companies/${company.id}/agents`, {
    name: 'Dev',
    role: 'engineer',
    adapterType: 'process',
    adapterConfig: { command: '/bin/sh', args: ['-c', script], env: { GIT_AUTHOR_NAME: 'Dev', GIT_AUTHOR_EMAIL: 'dev@a.test', GIT_COMMITTER_NAME: 'Dev', GIT_COMMITTER_EMAIL: 'dev@a.test' }, timeoutSec: 30 },
  });
  const issue = await board.api<{ id: string }>('POST', `/api/companies/${company.id}/issues`, { title: 'Greet the world', status: 'todo', projectId: project.id });
  await board.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { issueId: issue.id });
  await expect.poll(async () => (await fetch(`${board.url}/api/issues/${issue.id}/workspace`, { headers: { authorization: `Bearer ${board.token}` } })).status, { timeout: 20_000 }).toBe(200);
  await expect.poll(async () => (await board.api<{ ahead: number }>('GET', `/api/issues/${issue.id}/workspace`)).ahead, { timeout: 20_000 }).toBe(1);

  // The desktop window's bridge, as the preload would expose it (OS actions only: the page stays
  // signed in by its cookie). The folder chooser answers a second repository.
  const chosenRepo = mkdtempSync(path.join(parent, 'e2e-chosen-'));
  git(chosenRepo, 'init', '-q', '-b', 'main');
  git(chosenRepo, 'commit', '-q', '--allow-empty', '-m', 'initial');
  await page.addInitScript((chosen: string) => {
    const w = window as unknown as { headcount: unknown; openedFolders: string[] };
    w.openedFolders = [];
    w.headcount = { pickFolder: async () => chosen, openPath: async (p: string) => (w.openedFolders.push(p), true) };
  }, chosenRepo);
  await page.goto(`${board.url}/#/issues/${issue.id}`);
  await page.reload();
  const files = page.getByRole('list', { name: 'Changed files' });
  await expect(files).toContainText('app.js');
  await expect(files).toContainText('NOTES.md');
  // The branch's commit, with a link to the run that made it.
  const { commits } = await board.api<{ commits: { shortSha: string; runId: string | null }[] }>('GET', `/api/issues/${issue.id}/workspace`);
  expect(commits).toHaveLength(1);
  expect(commits[0]!.runId).not.toBeNull();
  const commitList = page.getByRole('list', { name: 'Commits' });
  await expect(commitList).toBeVisible();
  await expect(commitList).toContainText('Greet the world');
  await expect(commitList).toContainText(commits[0]!.shortSha);
  await expect(commitList).toContainText('Dev');
  await expect(commitList.getByRole('link', { name: 'Run' })).toHaveAttribute('href', new RegExp(`/runs/${commits[0]!.runId}$`));
  await page.getByRole('button', { name: 'Show diff' }).click();
  await expect(page.getByLabel('Diff')).toContainText('hello, world');
  await shot(page, '60-issue-workspace-diff');
  await page.getByLabel('Diff').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.resolve(import.meta.dirname, '../../docs/screenshots/workspace-diff.png') });
  const workspacePath = (await board.api<{ path: string }>('GET', `/api/issues/${issue.id}/workspace`)).path;
  await page.getByRole('button', { name: 'Open folder' }).click();
  await expect.poll(() => page.evaluate(() => (window as unknown as { openedFolders: string[] }).openedFolders)).toEqual([workspacePath]);
  await page.getByRole('button', { name: 'Merge into main' }).click();
  await expect(page.getByText('Merged', { exact: true })).toBeVisible();
  expect(git(repo, 'log', '-1', '--format=%s', 'main')).toBe('Greet the world');

  // The project's repository field: the server's reason shows at the field, nothing is saved.
  const field = page.getByLabel('Repository of App');
  await expect(field).toHaveValue(repo);
  await field.fill('relative/app');
  await page.getByRole('button', { name: 'Save repository' }).click();
  await expect(page.getByText('"relative/app" is not an absolute path')).toBeVisible();
  await shot(page, '61-project-repository-error');
  expect((await board.api<{ workspace: { repoPath: string } }>('GET', `/api/projects/${project.id}`)).workspace.repoPath).toBe(repo);

  // In the desktop window the folder chooser fills the field; the setup command is saved with it.
  await page.getByRole('button', { name: 'Choose folder…' }).click();
  await expect(field).toHaveValue(chosenRepo);
  await page.getByLabel('Setup command').fill('npm install');
  await page.getByRole('button', { name: 'Save repository' }).click();
  await expect.poll(async () => board.api<{ workspace: { repoPath: string }; setupCommand: string | null }>('GET', `/api/projects/${project.id}`)).toMatchObject({ workspace: { repoPath: chosenRepo }, setupCommand: 'npm install' });
});
