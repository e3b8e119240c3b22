import type { RouteRegistrar } from '../kernel/route.js';
import { errorResponses } from '../kernel/route.js';
import { IssueIdParams } from '../issues/params.js';
import { DiscardWorkspaceBody, IssueWorkspace, WorkspaceDiff, WorkspaceDiscard, WorkspaceMerge } from './contract.js';

const tags = ['workspaces'];

export const workspacesRoutes: RouteRegistrar = (app, s) => {
  app.get('/api/issues/:issueId/workspace', {
    schema: { tags, summary: 'The issue\'s workspace: branch, base, changed files (404 when it has none)', params: IssueIdParams, response: { 200: IssueWorkspace, ...errorResponses } },
    handler: (req) => s.workspaces.status(req.actor, req.params.issueId),
  });
  app.get('/api/issues/:issueId/workspace/diff', {
    schema: { tags, summary: 'Unified diff of the workspace branch against its merge base (capped at 1 MiB)', params: IssueIdParams, response: { 200: WorkspaceDiff, ...errorResponses } },
    handler: (req) => s.workspaces.diff(req.actor, req.params.issueId),
  });
  app.post('/api/issues/:issueId/workspace/merge', {
    schema: { tags, summary: 'Merge the workspace branch into the base branch of your repository (board)', params: IssueIdParams, response: { 200: WorkspaceMerge, ...errorResponses } },
    handler: (req) => s.workspaces.merge(req.actor, req.params.issueId),
  });
  app.post('/api/issues/:issueId/workspace/discard', {
    schema: { tags, summary: 'Remove the workspace; {confirm: true} when it holds unmerged or uncommitted work (board)', params: IssueIdParams, body: DiscardWorkspaceBody.optional(), response: { 200: WorkspaceDiscard, ...errorResponses } },
    handler: (req) => s.workspaces.discard(req.actor, req.params.issueId, req.body?.confirm === true),
  });
};
