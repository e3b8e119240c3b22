CREATE TABLE `issue_workspaces` (
	`issue_id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`project_id` text NOT NULL,
	`path` text NOT NULL,
	`branch` text NOT NULL,
	`repo_path` text NOT NULL,
	`base_branch` text NOT NULL,
	`git_config` text NOT NULL,
	`created_at` text NOT NULL,
	`merged_at` text,
	FOREIGN KEY (`issue_id`) REFERENCES `issues`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `issue_workspaces_company_idx` ON `issue_workspaces` (`company_id`);--> statement-breakpoint
ALTER TABLE `projects` ADD `workspace_repo_path` text;--> statement-breakpoint
ALTER TABLE `projects` ADD `workspace_base_branch` text;--> statement-breakpoint
ALTER TABLE `projects` ADD `setup_command` text;