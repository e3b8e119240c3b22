CREATE TABLE `spend_rollups` (
	`company_id` text NOT NULL,
	`month` text NOT NULL,
	`scope` text NOT NULL,
	`scope_id` text NOT NULL,
	`cost_micro_cents` integer NOT NULL,
	`input_tokens` integer NOT NULL,
	`output_tokens` integer NOT NULL,
	`events` integer NOT NULL,
	PRIMARY KEY(`company_id`, `month`, `scope`, `scope_id`),
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `spend_rollups_scope_idx` ON `spend_rollups` (`scope_id`,`month`,`scope`);