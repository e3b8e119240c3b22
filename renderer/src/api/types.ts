/**
 * Response and request types of the core, inferred from its zod contracts. Type-only imports: the
 * renderer bundle never carries zod schemas or anything behind them (the lint boundary allows
 * contract files only).
 */
import type { z } from 'zod';
import type * as Agents from '../../../main/core/agents/contract.js';
import type * as Approvals from '../../../main/core/approvals/contract.js';
import type * as Companies from '../../../main/core/companies/contract.js';
import type * as Costs from '../../../main/core/costs/contract.js';
import type * as Heartbeat from '../../../main/core/heartbeat/contract.js';
import type * as Issues from '../../../main/core/issues/contract.js';
import type * as Documents from '../../../main/core/issues/documents/contract.js';
import type * as Interactions from '../../../main/core/issues/interactions/contract.js';
import type * as Attachments from '../../../main/core/issues/attachments/contract.js';
import type * as Projects from '../../../main/core/projects/contract.js';
import type * as Workspaces from '../../../main/core/workspaces/contract.js';
import type * as Goals from '../../../main/core/goals/contract.js';
import type * as Secrets from '../../../main/core/secrets/contract.js';
import type * as Routines from '../../../main/core/routines/contract.js';
import type * as Labels from '../../../main/core/labels/contract.js';
import type * as InboxContract from '../../../main/core/inbox/contract.js';

export type Company = Companies.Company;
export type Agent = Agents.Agent;
export type AgentStatus = Agent['status'];
export type AgentKey = Agents.AgentKey;
export type CreatedAgentKey = z.infer<typeof Agents.CreatedAgentKey>;
export type ConfigRevision = Agents.ConfigRevision;
export type OrgNode = Agents.OrgNode;
export type AdapterModel = z.infer<typeof Agents.AdapterModel>;
export type CreateAgentInput = Agents.CreateAgentInput;
export type PatchAgentInput = Agents.PatchAgentInput;

export type Approval = Approvals.Approval;
export type ApprovalDetail = Approvals.ApprovalDetail;
export type ApprovalStatus = Approvals.ApprovalStatus;
export type ApprovalComment = Approvals.ApprovalComment;
export type HireAgentPayload = Approvals.HireAgentPayload;
export type CreateHireInput = Approvals.CreateHireInput;
export type HireResult = z.infer<typeof Approvals.HireResult>;

export type CostSummary = Costs.CostSummary;
export type AgentCosts = Costs.AgentCosts;
export type ProjectCosts = Costs.ProjectCosts;

export type HeartbeatRun = z.infer<typeof Heartbeat.HeartbeatRun>;
export type RunStatus = HeartbeatRun['status'];
export type RunLogPage = z.infer<typeof Heartbeat.RunLogPage>;
export type RunLogRecord = RunLogPage['records'][number];
export type HeartbeatSettings = z.infer<typeof Heartbeat.HeartbeatSettings>;

export type Issue = Issues.Issue & Partial<Pick<Issues.IssueWithLinks, 'labelIds' | 'blockedBy' | 'blocks' | 'openBlockerIds'>>;
export type IssueWithLinks = Issues.IssueWithLinks;
export type IssueDetail = Issues.IssueDetail;
export type IssueStatus = Issue['status'];
export type IssuePriority = Issue['priority'];
export type IssuePage = z.infer<typeof Issues.IssuePage>;
export type Comment = Issues.Comment;
export type CreateIssueInput = Issues.CreateIssueInput;
export type PatchIssueInput = Issues.PatchIssueInput;

export type IssueDocument = Documents.IssueDocument;
export type DocumentSummary = Documents.DocumentSummary;
export type DocumentRevision = Documents.DocumentRevision;
export type PutDocumentInput = Documents.PutDocumentInput;

export type Interaction = z.infer<typeof Interactions.Interaction>;
export type RequestConfirmationPayload = Interactions.RequestConfirmationPayload;
export type SuggestTasksPayload = Interactions.SuggestTasksPayload;
export type AskUserQuestionsPayload = Interactions.AskUserQuestionsPayload;
export type Answers = Interactions.Answers;

export type Attachment = Attachments.Attachment;
export type Project = Projects.Project;
export type IssueWorkspace = z.infer<typeof Workspaces.IssueWorkspace>;
export type WorkspaceDiff = z.infer<typeof Workspaces.WorkspaceDiff>;
export type Goal = Goals.Goal;
export type Secret = Secrets.Secret;
export type SystemStatus = Secrets.SystemStatus;

export type Routine = Routines.Routine;
export type RoutineWithToken = Routines.RoutineWithToken;
export type RoutineFiring = Routines.RoutineFiring;
export type CreateRoutineInput = z.input<typeof Routines.CreateRoutineBody>;
export type Label = Labels.Label;
export type InboxItem = InboxContract.InboxItem;
export interface Inbox {
  items: InboxItem[];
  count: number;
}

/** A page of a cursor-paged list. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** Statuses in board order. `satisfies` keeps these lists in step with the contracts. */
export const ISSUE_STATUSES = ['backlog', 'todo', 'in_progress', 'in_review', 'blocked', 'done', 'cancelled'] as const satisfies readonly IssueStatus[];
export const ISSUE_PRIORITIES = ['critical', 'high', 'medium', 'low'] as const satisfies readonly IssuePriority[];
export const RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'timed_out', 'cancelled', 'lost'] as const satisfies readonly RunStatus[];
export const ACTIVE_RUN_STATUSES: readonly RunStatus[] = ['queued', 'running'];
