CREATE TABLE `crm_brand_voice_guides` (
	`company_id` text PRIMARY KEY NOT NULL,
	`tone_notes` text NOT NULL,
	`banned_phrases` text NOT NULL,
	`required_claims` text NOT NULL,
	`min_length` integer,
	`max_length` integer,
	`model_adapter_type` text,
	`model_adapter_config` text,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action
);
