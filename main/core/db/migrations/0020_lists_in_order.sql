DROP INDEX `crm_enrollments_company_idx`;--> statement-breakpoint
CREATE INDEX `crm_enrollments_company_idx` ON `crm_sequence_enrollments` (`company_id`,`sequence_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `crm_allowlist_company_created_idx` ON `crm_allowlist_entries` (`company_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `crm_content_pieces_company_created_idx` ON `crm_content_pieces` (`company_id`,`created_at`) WHERE "crm_content_pieces"."deleted_at" is null;