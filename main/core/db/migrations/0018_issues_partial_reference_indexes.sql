DROP INDEX `issues_assignee_status_idx`;--> statement-breakpoint
DROP INDEX `issues_assignee_sort_idx`;--> statement-breakpoint
DROP INDEX `issues_parent_idx`;--> statement-breakpoint
DROP INDEX `issues_project_idx`;--> statement-breakpoint
CREATE INDEX `issues_assignee_status_idx` ON `issues` (`assignee_agent_id`,`status`,`priority_rank`,"last_activity_at" DESC,`id`) WHERE "issues"."assignee_agent_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `issues_assignee_sort_idx` ON `issues` (`assignee_agent_id`,`priority_rank`,"last_activity_at" DESC,`id`) WHERE "issues"."assignee_agent_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `issues_parent_idx` ON `issues` (`parent_id`) WHERE "issues"."parent_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `issues_project_idx` ON `issues` (`project_id`) WHERE "issues"."project_id" IS NOT NULL;