import { z } from 'zod';
import { Id, LongText, Name, Timestamp } from '../kernel/common-contract.js';

export const ProjectStatus = z.enum(['planned', 'active', 'completed', 'cancelled']);

export const Project = z
  .object({
    id: Id,
    companyId: Id,
    name: z.string(),
    description: z.string(),
    status: ProjectStatus,
    workspace: z
      .object({ repoPath: z.string(), baseBranch: z.string() })
      .nullable()
      .describe('The founder\'s git repository agents work on: each issue gets its own clone on branch headcount/<identifier>'),
    setupCommand: z.string().nullable().describe('Run once in every new issue workspace, before the agent starts'),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Project' });
export type Project = z.infer<typeof Project>;

export const WorkspaceBody = z.strictObject({
  repoPath: z.string().min(1).max(4096).describe('Absolute path of the repository\'s top folder'),
  baseBranch: z.string().min(1).max(255).optional().describe('Default: the branch the repository has checked out'),
});

const SetupCommand = z.string().min(1).max(4096).nullable();

export const CreateProjectBody = z.strictObject({
  name: Name,
  description: LongText.optional(),
  status: ProjectStatus.optional(),
  workspace: WorkspaceBody.nullable().optional(),
  setupCommand: SetupCommand.optional(),
});

export const PatchProjectBody = z.strictObject({
  name: Name.optional(),
  description: LongText.optional(),
  status: ProjectStatus.optional(),
  workspace: WorkspaceBody.nullable().optional(),
  setupCommand: SetupCommand.optional(),
});

export const ProjectIdParams = z.strictObject({ projectId: Id });
