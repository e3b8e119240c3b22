DROP INDEX `issues_company_sort_idx`;--> statement-breakpoint
DROP INDEX `issues_assignee_sort_idx`;--> statement-breakpoint
DROP INDEX `issues_company_status_idx`;--> statement-breakpoint
CREATE INDEX `issues_company_status_idx` ON `issues` (`company_id`,`status`,`priority_rank`,"last_activity_at" DESC,`id`,`deleted_at`);