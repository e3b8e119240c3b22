import { z } from 'zod';
import { Cents, Id, LongText, Name, Timestamp } from '../kernel/common-contract.js';

export const CompanyStatus = z.enum(['active', 'paused', 'archived']);

export const Company = z
  .object({
    id: Id,
    name: z.string(),
    description: z.string(),
    status: CompanyStatus,
    logoAssetId: Id.nullable(),
    logoUrl: z.string().nullable().describe('Content path of the logo asset (bearer auth)'),
    budgetMonthlyCents: Cents.describe('0 means no limit'),
    issuePrefix: z.string().describe('Prefix of readable issue identifiers, e.g. ACME in ACME-42'),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Company' });
export type Company = z.infer<typeof Company>;

export const CreateCompanyBody = z.strictObject({
  name: Name,
  description: LongText.optional(),
  budgetMonthlyCents: Cents.optional(),
});

export const PatchCompanyBody = z.strictObject({
  name: Name.optional(),
  description: LongText.optional(),
  budgetMonthlyCents: Cents.optional(),
  logoAssetId: Id.nullable().optional(),
});

export const ListCompaniesQuery = z.strictObject({
  includeArchived: z.enum(['true', 'false']).optional(),
});

export const LogoUploadResult = z
  .object({
    assetId: Id,
    contentType: z.string(),
    byteSize: z.int(),
    sha256: z.string(),
    url: z.string(),
  })
  .meta({ id: 'LogoUpload' });
