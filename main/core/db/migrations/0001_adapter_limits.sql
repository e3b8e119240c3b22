ALTER TABLE `heartbeat_runs` ADD `error_hint` text;--> statement-breakpoint
ALTER TABLE `heartbeat_runs` ADD `summary` text;--> statement-breakpoint
ALTER TABLE `heartbeat_runs` ADD `rate_limit_reset_at` text;