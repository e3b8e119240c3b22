import { z } from 'zod';
import { Id, Timestamp } from '../kernel/common-contract.js';

export const Label = z
  .object({ id: Id, companyId: Id, name: z.string(), color: z.string().describe('#rrggbb'), createdAt: Timestamp, updatedAt: Timestamp })
  .meta({ id: 'Label' });
export type Label = z.infer<typeof Label>;

const LabelName = z.string().trim().min(1, 'must not be empty').max(50);
const Color = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be #rrggbb').transform((c) => c.toLowerCase());

export const CreateLabelBody = z.strictObject({ name: LabelName, color: Color });
export const PatchLabelBody = z.strictObject({ name: LabelName.optional(), color: Color.optional() });
export const LabelIdParams = z.strictObject({ labelId: Id });
/** Issue create and PATCH: the full set of the labels (PATCH replaces it). */
export const LabelIds = z.array(Id).max(50).describe('Labels of the company; PATCH replaces the set');
