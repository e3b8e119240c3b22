CREATE TABLE `issue_blockers` (
	`company_id` text NOT NULL,
	`issue_id` text NOT NULL,
	`blocker_issue_id` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`issue_id`, `blocker_issue_id`),
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`issue_id`) REFERENCES `issues`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`blocker_issue_id`) REFERENCES `issues`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `issue_blockers_blocker_idx` ON `issue_blockers` (`blocker_issue_id`);--> statement-breakpoint
CREATE TABLE `issue_labels` (
	`company_id` text NOT NULL,
	`issue_id` text NOT NULL,
	`label_id` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`issue_id`, `label_id`),
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`issue_id`) REFERENCES `issues`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`label_id`) REFERENCES `labels`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `issue_labels_label_idx` ON `issue_labels` (`label_id`,`issue_id`);--> statement-breakpoint
CREATE TABLE `labels` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`name` text NOT NULL,
	`color` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `labels_company_name_uq` ON `labels` (`company_id`,`name`);--> statement-breakpoint
CREATE TABLE `routine_firings` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`routine_id` text NOT NULL,
	`slot_key` text,
	`slot_at` text,
	`trigger` text NOT NULL,
	`outcome` text NOT NULL,
	`reason` text,
	`issue_id` text,
	`payload` text,
	`fired_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`routine_id`) REFERENCES `routines`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`issue_id`) REFERENCES `issues`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `routine_firings_slot_uq` ON `routine_firings` (`routine_id`,`slot_key`);--> statement-breakpoint
CREATE INDEX `routine_firings_routine_idx` ON `routine_firings` (`routine_id`,`fired_at`);--> statement-breakpoint
CREATE INDEX `routine_firings_outcome_idx` ON `routine_firings` (`outcome`);--> statement-breakpoint
CREATE TABLE `routines` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`title` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`assignee_agent_id` text NOT NULL,
	`project_id` text,
	`priority` text NOT NULL,
	`trigger_kind` text NOT NULL,
	`cron` text,
	`timezone` text,
	`webhook_token_hash` text,
	`catch_up` text NOT NULL,
	`concurrency` text NOT NULL,
	`enabled` integer NOT NULL,
	`scheduled_through` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`deleted_at` text,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`assignee_agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `routines_company_idx` ON `routines` (`company_id`,`deleted_at`);--> statement-breakpoint
CREATE INDEX `routines_webhook_token_idx` ON `routines` (`webhook_token_hash`);--> statement-breakpoint
CREATE TABLE `inbox_dismissals` (
	`company_id` text NOT NULL,
	`item_id` text NOT NULL,
	`dismissed_at` text NOT NULL,
	PRIMARY KEY(`company_id`, `item_id`),
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action
);
