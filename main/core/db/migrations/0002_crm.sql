CREATE TABLE `crm_activities` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`status` text NOT NULL,
	`dedup_key` text NOT NULL,
	`outbox_id` text NOT NULL,
	`channel` text NOT NULL,
	`contact` text NOT NULL,
	`kind` text NOT NULL,
	`payload` text NOT NULL,
	`tags` text NOT NULL,
	`niche` text,
	`content_piece_id` text,
	`actor_type` text NOT NULL,
	`actor_id` text,
	`origin` text DEFAULT 'api' NOT NULL,
	`origin_ref` text,
	`rule_id` text,
	`decision` text,
	`decided_at` text,
	`approved_at` text,
	`quota_day` text,
	`dry_run` integer DEFAULT false NOT NULL,
	`provider_message_id` text,
	`error_code` text,
	`error_message` text,
	`possibly_sent` integer DEFAULT false NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`sent_at` text,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`outbox_id`) REFERENCES `crm_outboxes`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`content_piece_id`) REFERENCES `crm_content_pieces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`rule_id`) REFERENCES `crm_approval_rules`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `crm_activities_dedup_uq` ON `crm_activities` (`company_id`,`dedup_key`);--> statement-breakpoint
CREATE INDEX `crm_activities_company_idx` ON `crm_activities` (`company_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `crm_activities_outbox_idx` ON `crm_activities` (`outbox_id`,`status`);--> statement-breakpoint
CREATE INDEX `crm_activities_status_idx` ON `crm_activities` (`status`);--> statement-breakpoint
CREATE TABLE `crm_allowlist_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`channel` text,
	`outbox_id` text,
	`kind` text NOT NULL,
	`value` text NOT NULL,
	`note` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`outbox_id`) REFERENCES `crm_outboxes`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `crm_allowlist_company_idx` ON `crm_allowlist_entries` (`company_id`,`kind`,`value`);--> statement-breakpoint
CREATE TABLE `crm_approval_rules` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`name` text,
	`predicate` text NOT NULL,
	`action` text NOT NULL,
	`priority` integer NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`deleted_at` text,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `crm_approval_rules_company_idx` ON `crm_approval_rules` (`company_id`,`priority`);--> statement-breakpoint
CREATE TABLE `crm_content_pieces` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`issue_id` text,
	`title` text NOT NULL,
	`summary` text DEFAULT '' NOT NULL,
	`source_path` text NOT NULL,
	`source_sha256` text NOT NULL,
	`tags` text NOT NULL,
	`channel_intent` text,
	`niche` text,
	`frontmatter` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`deleted_at` text,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`issue_id`) REFERENCES `issues`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `crm_content_pieces_path_uq` ON `crm_content_pieces` (`company_id`,`source_path`) WHERE "crm_content_pieces"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX `crm_content_pieces_issue_idx` ON `crm_content_pieces` (`issue_id`);--> statement-breakpoint
CREATE INDEX `crm_content_pieces_sha_idx` ON `crm_content_pieces` (`company_id`,`source_sha256`);--> statement-breakpoint
CREATE TABLE `crm_outboxes` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`name` text NOT NULL,
	`channel` text NOT NULL,
	`niche` text,
	`secret_ref` text,
	`config` text NOT NULL,
	`daily_cap` integer,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`deleted_at` text,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `crm_outboxes_company_idx` ON `crm_outboxes` (`company_id`,`deleted_at`);--> statement-breakpoint
CREATE TABLE `crm_quota_buckets` (
	`outbox_id` text NOT NULL,
	`day` text NOT NULL,
	`company_id` text NOT NULL,
	`used` integer DEFAULT 0 NOT NULL,
	`cap` integer NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`outbox_id`, `day`),
	FOREIGN KEY (`outbox_id`) REFERENCES `crm_outboxes`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `crm_quota_company_idx` ON `crm_quota_buckets` (`company_id`,`day`);