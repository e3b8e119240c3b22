CREATE TABLE `crm_brand_voice_checks` (
	`company_id` text NOT NULL,
	`content_sha256` text NOT NULL,
	`verdict` text NOT NULL,
	`score` integer NOT NULL,
	`summary` text NOT NULL,
	`findings` text NOT NULL,
	`model` text NOT NULL,
	`checked_at` text NOT NULL,
	`hit_count` integer DEFAULT 0 NOT NULL,
	`last_hit_at` text,
	PRIMARY KEY(`company_id`, `content_sha256`),
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `crm_brand_voice_checks_checked_idx` ON `crm_brand_voice_checks` (`company_id`,`checked_at`);--> statement-breakpoint
CREATE TABLE `crm_brand_voice_settings` (
	`company_id` text PRIMARY KEY NOT NULL,
	`endpoint_url` text NOT NULL,
	`model` text NOT NULL,
	`api_key_ref` text,
	`guidelines` text NOT NULL,
	`timeout_ms` integer NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `crm_hook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`hook_id` text NOT NULL,
	`hook_type` text NOT NULL,
	`issue_id` text NOT NULL,
	`comment_id` text,
	`result` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`issue_id`) REFERENCES `issues`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`comment_id`) REFERENCES `issue_comments`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `crm_hook_deliveries_hook_issue_uq` ON `crm_hook_deliveries` (`hook_id`,`issue_id`);--> statement-breakpoint
CREATE INDEX `crm_hook_deliveries_company_idx` ON `crm_hook_deliveries` (`company_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `crm_sequence_enrollments` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`sequence_id` text NOT NULL,
	`contact` text NOT NULL,
	`status` text NOT NULL,
	`step_index` integer NOT NULL,
	`next_at` text,
	`failures` integer DEFAULT 0 NOT NULL,
	`last_activity_id` text,
	`last_outcome` text,
	`stop_reason` text,
	`enrolled_by_type` text NOT NULL,
	`enrolled_by_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`sequence_id`) REFERENCES `crm_sequences`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`last_activity_id`) REFERENCES `crm_activities`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `crm_enrollments_live_uq` ON `crm_sequence_enrollments` (`sequence_id`,`contact`) WHERE "crm_sequence_enrollments"."status" in ('active', 'waiting_approval');--> statement-breakpoint
CREATE INDEX `crm_enrollments_due_idx` ON `crm_sequence_enrollments` (`status`,`next_at`);--> statement-breakpoint
CREATE INDEX `crm_enrollments_company_idx` ON `crm_sequence_enrollments` (`company_id`,`sequence_id`);--> statement-breakpoint
CREATE TABLE `crm_sequences` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`name` text NOT NULL,
	`outbox_id` text NOT NULL,
	`steps` text NOT NULL,
	`send_window` text NOT NULL,
	`status` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`deleted_at` text,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`outbox_id`) REFERENCES `crm_outboxes`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `crm_sequences_company_idx` ON `crm_sequences` (`company_id`,`deleted_at`);