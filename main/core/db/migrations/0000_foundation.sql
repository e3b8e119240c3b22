CREATE TABLE `companies` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`logo_asset_id` text,
	`budget_monthly_cents` integer DEFAULT 0 NOT NULL,
	`issue_prefix` text DEFAULT '' NOT NULL,
	`issue_counter` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`logo_asset_id`) REFERENCES `assets`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `companies_status_idx` ON `companies` (`status`);--> statement-breakpoint
CREATE UNIQUE INDEX `companies_issue_prefix_uq` ON `companies` (`issue_prefix`);--> statement-breakpoint
CREATE TABLE `assets` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`kind` text NOT NULL,
	`content_type` text NOT NULL,
	`byte_size` integer NOT NULL,
	`sha256` text NOT NULL,
	`original_name` text NOT NULL,
	`storage_name` text NOT NULL,
	`created_by_type` text NOT NULL,
	`created_by_id` text,
	`created_at` text NOT NULL,
	`issue_id` text,
	`deleted_at` text,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `assets_company_idx` ON `assets` (`company_id`);--> statement-breakpoint
CREATE INDEX `assets_issue_idx` ON `assets` (`issue_id`);--> statement-breakpoint
CREATE TABLE `agent_api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`agent_id` text NOT NULL,
	`company_id` text NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`prefix` text NOT NULL,
	`key_hash` text NOT NULL,
	`created_at` text NOT NULL,
	`last_used_at` text,
	`revoked_at` text,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agent_api_keys_hash_uq` ON `agent_api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `agent_api_keys_agent_idx` ON `agent_api_keys` (`agent_id`);--> statement-breakpoint
CREATE TABLE `agent_config_revisions` (
	`id` text PRIMARY KEY NOT NULL,
	`agent_id` text NOT NULL,
	`revision_number` integer NOT NULL,
	`adapter_type` text NOT NULL,
	`adapter_config` text NOT NULL,
	`reason` text NOT NULL,
	`rolled_back_from_revision_id` text,
	`actor_type` text NOT NULL,
	`actor_id` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agent_config_revisions_number_uq` ON `agent_config_revisions` (`agent_id`,`revision_number`);--> statement-breakpoint
CREATE TABLE `agents` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`name` text NOT NULL,
	`url_key` text NOT NULL,
	`role` text DEFAULT '' NOT NULL,
	`title` text DEFAULT '' NOT NULL,
	`reports_to` text,
	`capabilities` text DEFAULT '' NOT NULL,
	`status` text NOT NULL,
	`pause_reason` text,
	`adapter_type` text NOT NULL,
	`adapter_config` text NOT NULL,
	`budget_monthly_cents` integer DEFAULT 0 NOT NULL,
	`terminated_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`reports_to`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agents_company_url_key_uq` ON `agents` (`company_id`,`url_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `agents_company_name_uq` ON `agents` (`company_id`,lower("name")) WHERE "agents"."status" <> 'terminated';--> statement-breakpoint
CREATE INDEX `agents_reports_to_idx` ON `agents` (`reports_to`);--> statement-breakpoint
CREATE TABLE `projects` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `projects_company_idx` ON `projects` (`company_id`);--> statement-breakpoint
CREATE TABLE `goals` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`project_id` text,
	`title` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `goals_company_idx` ON `goals` (`company_id`);--> statement-breakpoint
CREATE TABLE `activity` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`company_id` text,
	`actor_type` text NOT NULL,
	`actor_id` text,
	`action` text NOT NULL,
	`entity_type` text NOT NULL,
	`entity_id` text NOT NULL,
	`summary` text NOT NULL,
	`details` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `activity_id_unique` ON `activity` (`id`);--> statement-breakpoint
CREATE INDEX `activity_company_seq_idx` ON `activity` (`company_id`,`seq`);--> statement-breakpoint
CREATE INDEX `activity_entity_idx` ON `activity` (`entity_type`,`entity_id`);--> statement-breakpoint
CREATE TABLE `budget_alerts` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`agent_id` text,
	`scope_key` text NOT NULL,
	`window_start` text NOT NULL,
	`threshold` integer NOT NULL,
	`spent_micro_cents` integer NOT NULL,
	`budget_cents` integer NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `budget_alerts_once_uq` ON `budget_alerts` (`scope_key`,`window_start`,`threshold`);--> statement-breakpoint
CREATE TABLE `cost_events` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`agent_id` text NOT NULL,
	`provider` text NOT NULL,
	`model` text NOT NULL,
	`input_tokens` integer DEFAULT 0 NOT NULL,
	`output_tokens` integer DEFAULT 0 NOT NULL,
	`cost_micro_cents` integer NOT NULL,
	`run_id` text,
	`issue_id` text,
	`project_id` text,
	`occurred_at` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `cost_events_company_time_idx` ON `cost_events` (`company_id`,`occurred_at`);--> statement-breakpoint
CREATE INDEX `cost_events_agent_time_idx` ON `cost_events` (`agent_id`,`occurred_at`);--> statement-breakpoint
CREATE TABLE `issue_comments` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`issue_id` text NOT NULL,
	`author_type` text NOT NULL,
	`author_agent_id` text,
	`body` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`issue_id`) REFERENCES `issues`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`author_agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `issue_comments_issue_idx` ON `issue_comments` (`issue_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `issue_document_revisions` (
	`id` text PRIMARY KEY NOT NULL,
	`document_id` text NOT NULL,
	`revision_number` integer NOT NULL,
	`title` text NOT NULL,
	`format` text NOT NULL,
	`body` text NOT NULL,
	`author_type` text NOT NULL,
	`author_id` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`document_id`) REFERENCES `issue_documents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `issue_document_revisions_number_uq` ON `issue_document_revisions` (`document_id`,`revision_number`);--> statement-breakpoint
CREATE TABLE `issue_documents` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`issue_id` text NOT NULL,
	`key` text NOT NULL,
	`title` text NOT NULL,
	`format` text NOT NULL,
	`body` text NOT NULL,
	`revision_number` integer NOT NULL,
	`current_revision_id` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`deleted_at` text,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`issue_id`) REFERENCES `issues`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `issue_documents_issue_key_uq` ON `issue_documents` (`issue_id`,`key`) WHERE "issue_documents"."deleted_at" IS NULL;--> statement-breakpoint
CREATE TABLE `issue_interactions` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`issue_id` text NOT NULL,
	`kind` text NOT NULL,
	`idempotency_key` text NOT NULL,
	`title` text NOT NULL,
	`summary` text DEFAULT '' NOT NULL,
	`continuation_policy` text,
	`payload` text NOT NULL,
	`status` text NOT NULL,
	`resolution` text,
	`created_by_type` text NOT NULL,
	`created_by_id` text,
	`resolved_by_type` text,
	`resolved_by_id` text,
	`resolved_at` text,
	`superseded_by_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`issue_id`) REFERENCES `issues`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `issue_interactions_idempotency_uq` ON `issue_interactions` (`issue_id`,`idempotency_key`);--> statement-breakpoint
CREATE INDEX `issue_interactions_issue_idx` ON `issue_interactions` (`issue_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `issue_mentions` (
	`id` text PRIMARY KEY NOT NULL,
	`comment_id` text NOT NULL,
	`issue_id` text NOT NULL,
	`agent_id` text NOT NULL,
	`created_at` text NOT NULL,
	`read_at` text,
	FOREIGN KEY (`comment_id`) REFERENCES `issue_comments`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`issue_id`) REFERENCES `issues`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `issue_mentions_agent_idx` ON `issue_mentions` (`agent_id`,`read_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `issue_mentions_comment_agent_uq` ON `issue_mentions` (`comment_id`,`agent_id`);--> statement-breakpoint
CREATE TABLE `issues` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`number` integer NOT NULL,
	`identifier` text NOT NULL,
	`title` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`status` text NOT NULL,
	`priority` text NOT NULL,
	`priority_rank` integer NOT NULL,
	`assignee_agent_id` text,
	`parent_id` text,
	`project_id` text,
	`goal_id` text,
	`billing_code` text,
	`checkout_agent_id` text,
	`checkout_run_id` text,
	`checked_out_at` text,
	`started_at` text,
	`completed_at` text,
	`cancelled_at` text,
	`created_by_type` text NOT NULL,
	`created_by_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`last_activity_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`assignee_agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`parent_id`) REFERENCES `issues`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`goal_id`) REFERENCES `goals`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`checkout_agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `issues_identifier_uq` ON `issues` (`identifier`);--> statement-breakpoint
CREATE UNIQUE INDEX `issues_company_number_uq` ON `issues` (`company_id`,`number`);--> statement-breakpoint
CREATE INDEX `issues_company_sort_idx` ON `issues` (`company_id`,`priority_rank`,"last_activity_at" DESC,`id`);--> statement-breakpoint
CREATE INDEX `issues_company_status_idx` ON `issues` (`company_id`,`status`);--> statement-breakpoint
CREATE INDEX `issues_assignee_idx` ON `issues` (`assignee_agent_id`,`status`);--> statement-breakpoint
CREATE INDEX `issues_parent_idx` ON `issues` (`parent_id`);--> statement-breakpoint
CREATE INDEX `issues_project_idx` ON `issues` (`project_id`);--> statement-breakpoint
CREATE TABLE `wake_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`agent_id` text NOT NULL,
	`reason` text NOT NULL,
	`issue_id` text,
	`comment_id` text,
	`interaction_id` text,
	`approval_id` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`skip_reason` text,
	`run_id` text,
	`created_at` text NOT NULL,
	`processed_at` text,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `wake_requests_agent_status_idx` ON `wake_requests` (`agent_id`,`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `master_key_state` (
	`id` integer PRIMARY KEY NOT NULL,
	`generation` integer NOT NULL,
	`canary_iv` blob NOT NULL,
	`canary_ciphertext` blob NOT NULL,
	`canary_auth_tag` blob NOT NULL,
	`rotated_at` text
);
--> statement-breakpoint
CREATE TABLE `secret_versions` (
	`id` text PRIMARY KEY NOT NULL,
	`secret_id` text NOT NULL,
	`version` integer NOT NULL,
	`iv` blob NOT NULL,
	`ciphertext` blob NOT NULL,
	`auth_tag` blob NOT NULL,
	`key_generation` integer NOT NULL,
	`created_by_type` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`secret_id`) REFERENCES `secrets`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `secret_versions_number_uq` ON `secret_versions` (`secret_id`,`version`);--> statement-breakpoint
CREATE TABLE `secrets` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`latest_version` integer NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`deleted_at` text,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `secrets_company_name_uq` ON `secrets` (`company_id`,`name`) WHERE "secrets"."deleted_at" IS NULL;--> statement-breakpoint
CREATE TABLE `approval_comments` (
	`id` text PRIMARY KEY NOT NULL,
	`approval_id` text NOT NULL,
	`author_type` text NOT NULL,
	`author_agent_id` text,
	`body` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`approval_id`) REFERENCES `approvals`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`author_agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `approval_comments_approval_idx` ON `approval_comments` (`approval_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `approval_events` (
	`id` text PRIMARY KEY NOT NULL,
	`approval_id` text NOT NULL,
	`from_status` text,
	`to_status` text NOT NULL,
	`note` text,
	`payload` text,
	`actor_type` text NOT NULL,
	`actor_id` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`approval_id`) REFERENCES `approvals`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `approval_events_approval_idx` ON `approval_events` (`approval_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `approval_issues` (
	`approval_id` text NOT NULL,
	`issue_id` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`approval_id`, `issue_id`),
	FOREIGN KEY (`approval_id`) REFERENCES `approvals`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`issue_id`) REFERENCES `issues`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `approval_issues_issue_idx` ON `approval_issues` (`issue_id`);--> statement-breakpoint
CREATE TABLE `approvals` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`payload` text NOT NULL,
	`requested_by_agent_id` text,
	`hire_agent_id` text,
	`decision_note` text,
	`decided_by_type` text,
	`decided_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`requested_by_agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`hire_agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `approvals_company_status_idx` ON `approvals` (`company_id`,`status`);--> statement-breakpoint
CREATE TABLE `agent_heartbeat_settings` (
	`agent_id` text PRIMARY KEY NOT NULL,
	`interval_sec` integer,
	`enabled` integer DEFAULT false NOT NULL,
	`skip_when_idle` integer DEFAULT true NOT NULL,
	`last_scheduled_at` text,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `agent_sessions` (
	`agent_id` text NOT NULL,
	`task_key` text NOT NULL,
	`params` text NOT NULL,
	`run_id` text,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`agent_id`, `task_key`),
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `heartbeat_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`agent_id` text NOT NULL,
	`status` text NOT NULL,
	`trigger` text NOT NULL,
	`reasons` text NOT NULL,
	`task_issue_id` text,
	`adapter_type` text NOT NULL,
	`command` text,
	`pid` integer,
	`exit_code` integer,
	`signal` text,
	`timed_out` integer DEFAULT false NOT NULL,
	`usage` text,
	`cost_micro_cents` integer,
	`session_params` text,
	`error_code` text,
	`error_message` text,
	`transcript_bytes` integer DEFAULT 0 NOT NULL,
	`cancel_reason` text,
	`queued_at` text NOT NULL,
	`started_at` text,
	`finished_at` text,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `heartbeat_runs_company_idx` ON `heartbeat_runs` (`company_id`,`queued_at`);--> statement-breakpoint
CREATE INDEX `heartbeat_runs_agent_idx` ON `heartbeat_runs` (`agent_id`,`status`);--> statement-breakpoint
CREATE INDEX `heartbeat_runs_status_idx` ON `heartbeat_runs` (`status`);--> statement-breakpoint
CREATE TABLE `instance_settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` text NOT NULL
);
