ALTER TABLE `issues` ADD `deleted_at` text;--> statement-breakpoint
CREATE INDEX `heartbeat_runs_task_issue_idx` ON `heartbeat_runs` (`task_issue_id`,`queued_at`);