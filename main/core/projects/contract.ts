import { z } from 'zod';
import { Id, LongText, Name, Timestamp } from '../http/common-contract.js';

export const ProjectStatus = z.enum(['planned', 'active', 'completed', 'cancelled']);

export const Project = z
  .object({
    id: Id,
    companyId: Id,
    name: z.string(),
    description: z.string(),
    status: ProjectStatus,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Project' });
export type Project = z.infer<typeof Project>;

export const CreateProjectBody = z.strictObject({
  name: Name,
  description: LongText.optional(),
  status: ProjectStatus.optional(),
});

export const PatchProjectBody = z.strictObject({
  name: Name.optional(),
  description: LongText.optional(),
  status: ProjectStatus.optional(),
});

export const ProjectIdParams = z.strictObject({ projectId: Id });
