import { z } from 'zod';

/** Shared request/response pieces. The renderer imports contract files only. */
export const Id = z.uuid({ message: 'must be a UUID' });
export const Timestamp = z.string().describe('ISO-8601 UTC timestamp');
export const Cents = z.int().min(0).max(1_000_000_000_000);
export const Name = z.string().trim().min(1, 'must not be empty').max(200);
export const LongText = z.string().max(100_000);

export const CompanyIdParams = z.strictObject({ companyId: Id });

/** Query strings: pagination shared by every paged list. */
export const PageQuery = {
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(200).optional(),
};

/** Empty JSON object, for action routes that take no body. */
export const EmptyBody = z.strictObject({}).nullish();
