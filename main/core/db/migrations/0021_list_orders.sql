DROP INDEX `assets_issue_idx`;--> statement-breakpoint
CREATE INDEX `assets_issue_idx` ON `assets` (`issue_id`,`created_at`);--> statement-breakpoint
DROP INDEX `projects_company_idx`;--> statement-breakpoint
CREATE INDEX `projects_company_idx` ON `projects` (`company_id`,`created_at`);--> statement-breakpoint
DROP INDEX `goals_company_idx`;--> statement-breakpoint
CREATE INDEX `goals_company_idx` ON `goals` (`company_id`,`created_at`);--> statement-breakpoint
DROP INDEX `routines_company_idx`;--> statement-breakpoint
CREATE INDEX `routines_company_idx` ON `routines` (`company_id`,`deleted_at`,`title`);