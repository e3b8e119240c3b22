import { z } from 'zod';
import { Id } from '../kernel/common-contract.js';
import { IssueIdParams } from './params.js';

export const AddBlockerBody = z.strictObject({ blockerIssueId: z.string().trim().min(1).max(64).describe('Issue id or identifier (e.g. ACME-7) of the same company') });
export const BlockerParams = IssueIdParams.extend({ blockerIssueId: Id });
export const IssueDependencies = z
  .object({ blockedBy: z.array(Id), blocks: z.array(Id), openBlockerIds: z.array(Id) })
  .meta({ id: 'IssueDependencies' });
