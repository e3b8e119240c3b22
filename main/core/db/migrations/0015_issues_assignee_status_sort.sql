DROP INDEX `issues_assignee_idx`;--> statement-breakpoint
CREATE INDEX `issues_assignee_status_idx` ON `issues` (`assignee_agent_id`,`status`,`priority_rank`,"last_activity_at" DESC,`id`);