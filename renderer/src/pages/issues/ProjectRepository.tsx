import { useState, type FormEvent } from 'react';
import { useApi } from '../../app/api-context.js';
import { useAction } from '../../api/hooks.js';
import { keys } from '../../api/keys.js';
import { ApiError } from '../../api/client.js';
import type { Project } from '../../api/types.js';
import { Card } from '../../components/Page.js';
import { Button } from '../../components/Button.js';
import { Input } from '../../components/Field.js';
import { desktopActions } from '../../app/desktop.js';

/**
 * The repository of the project: issues of a project with one get their own clone of it.
 * The path is checked by the server (400 `invalid_workspace`), its reason shown at the field.
 */
export function ProjectRepository({ project, companyId }: { project: Project; companyId: string }) {
  const api = useApi();
  const [repoPath, setRepoPath] = useState(project.workspace?.repoPath ?? '');
  const [baseBranch, setBaseBranch] = useState(project.workspace?.baseBranch ?? '');
  const [setupCommand, setSetupCommand] = useState(project.setupCommand ?? '');
  const [error, setError] = useState<string | null>(null);
  const { pickFolder } = desktopActions();
  // A new project record resets the fields (adjusted during render, not in an effect: no stale frame).
  const [shown, setShown] = useState(project);
  if (shown !== project) {
    setShown(project);
    setRepoPath(project.workspace?.repoPath ?? '');
    setBaseBranch(project.workspace?.baseBranch ?? '');
    setSetupCommand(project.setupCommand ?? '');
  }
  const save = useAction(
    () =>
      api.patch<Project>(`/api/projects/${project.id}`, {
        workspace: repoPath.trim() ? { repoPath: repoPath.trim(), ...(baseBranch.trim() ? { baseBranch: baseBranch.trim() } : {}) } : null,
        setupCommand: setupCommand.trim() || null,
      }),
    {
      success: 'Repository saved',
      invalidate: [keys.projects(companyId)],
      onSuccess: () => setError(null),
      handled: (err) => (err instanceof ApiError && err.code === 'invalid_workspace' ? (setError(String((err.details as { reason?: string } | undefined)?.reason ?? err.message)), true) : false),
    },
  );
  const dirty = repoPath !== (project.workspace?.repoPath ?? '') || baseBranch !== (project.workspace?.baseBranch ?? '') || setupCommand !== (project.setupCommand ?? '');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(undefined);
  };
  return (
    <Card>
      <form className="form" onSubmit={submit} aria-label="Project repository">
        <Input label={`Repository of ${project.name}`} placeholder="/home/me/app" value={repoPath} onChange={(e) => (setRepoPath(e.target.value), setError(null))} error={error} hint="Absolute path of a git repository: each issue gets its own copy on branch headcount/<issue>." />
        {pickFolder ? (
          <div>
            <Button
              size="sm"
              onClick={() =>
                void pickFolder({ title: `Repository of ${project.name}`, ...(repoPath.trim() ? { defaultPath: repoPath.trim() } : {}) }).then((chosen) => {
                  if (!chosen) return;
                  setRepoPath(chosen);
                  setError(null);
                })
              }
            >
              Choose folder…
            </Button>
          </div>
        ) : null}
        <Input label="Base branch" placeholder="the checked-out branch" value={baseBranch} onChange={(e) => setBaseBranch(e.target.value)} />
        <Input label="Setup command" className="input mono" placeholder="npm install" value={setupCommand} onChange={(e) => setSetupCommand(e.target.value)} hint="Runs once in every new issue workspace before the agent starts; its output goes to the run's transcript." />
        <div className="row">
          <Button type="submit" size="sm" busy={save.isPending} disabled={!dirty}>Save repository</Button>
        </div>
      </form>
    </Card>
  );
}
