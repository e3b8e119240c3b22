import { z } from 'zod';
import { Id, LongText, Name, Timestamp } from '../kernel/common-contract.js';

export const GoalStatus = z.enum(['active', 'achieved', 'abandoned']);

export const Goal = z
  .object({
    id: Id,
    companyId: Id,
    projectId: Id.nullable(),
    title: z.string(),
    description: z.string(),
    status: GoalStatus,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Goal' });
export type Goal = z.infer<typeof Goal>;

export const CreateGoalBody = z.strictObject({
  title: Name,
  description: LongText.optional(),
  status: GoalStatus.optional(),
  projectId: Id.nullable().optional(),
});

export const PatchGoalBody = z.strictObject({
  title: Name.optional(),
  description: LongText.optional(),
  status: GoalStatus.optional(),
  projectId: Id.nullable().optional(),
});

export const GoalIdParams = z.strictObject({ goalId: Id });
