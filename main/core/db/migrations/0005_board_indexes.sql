DROP INDEX `cost_events_company_time_idx`;--> statement-breakpoint
DROP INDEX `cost_events_agent_time_idx`;--> statement-breakpoint
CREATE INDEX `cost_events_company_time_idx` ON `cost_events` (`company_id`,`occurred_at`,`agent_id`,`cost_micro_cents`);--> statement-breakpoint
CREATE INDEX `cost_events_agent_time_idx` ON `cost_events` (`agent_id`,`occurred_at`,`cost_micro_cents`);--> statement-breakpoint
DROP INDEX `issues_company_status_idx`;--> statement-breakpoint
CREATE INDEX `issues_assignee_sort_idx` ON `issues` (`assignee_agent_id`,`priority_rank`,"last_activity_at" DESC,`id`);--> statement-breakpoint
CREATE INDEX `issues_company_status_idx` ON `issues` (`company_id`,`status`,`priority_rank`,"last_activity_at" DESC,`id`);