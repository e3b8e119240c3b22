-- The inbox's count of long-blocked issues (issue 17) read every blocked issue's index entry: at
-- 12,500 blocked issues, a third of an inbox request. The blocked issues of each company are now
-- counted by triggers in the writing transaction; the inbox subtracts those touched within the day.
-- The triggers fire only when an issue enters or leaves the count: a checkout's status change
-- between todo and in_progress evaluates their WHEN and writes nothing.
CREATE TABLE `issue_blocked_counts` (
	`company_id` text PRIMARY KEY NOT NULL,
	`blocked` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
DROP INDEX `issues_blocked_idx`;--> statement-breakpoint
CREATE INDEX `issues_blocked_idx` ON `issues` (`company_id`,"last_activity_at" DESC,`id`,`status`,`deleted_at`) WHERE "issues"."status" = 'blocked' AND "issues"."deleted_at" IS NULL;--> statement-breakpoint
INSERT INTO `issue_blocked_counts` (`company_id`, `blocked`)
	SELECT `company_id`, count(*) FROM `issues` WHERE `status` = 'blocked' AND `deleted_at` IS NULL GROUP BY `company_id`;
--> statement-breakpoint
CREATE TRIGGER `issues_blocked_count_ai` AFTER INSERT ON `issues`
	WHEN new.status = 'blocked' AND new.deleted_at IS NULL BEGIN
	INSERT INTO issue_blocked_counts (company_id, blocked) VALUES (new.company_id, 1)
		ON CONFLICT (company_id) DO UPDATE SET blocked = blocked + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `issues_blocked_count_au` AFTER UPDATE OF status, deleted_at, company_id ON `issues`
	WHEN (old.status = 'blocked' AND old.deleted_at IS NULL) <> (new.status = 'blocked' AND new.deleted_at IS NULL)
		OR (old.company_id <> new.company_id AND new.status = 'blocked' AND new.deleted_at IS NULL) BEGIN
	UPDATE issue_blocked_counts SET blocked = blocked - 1
		WHERE company_id = old.company_id AND old.status = 'blocked' AND old.deleted_at IS NULL;
	INSERT INTO issue_blocked_counts (company_id, blocked)
		SELECT new.company_id, 1 WHERE new.status = 'blocked' AND new.deleted_at IS NULL
		ON CONFLICT (company_id) DO UPDATE SET blocked = blocked + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `issues_blocked_count_ad` AFTER DELETE ON `issues`
	WHEN old.status = 'blocked' AND old.deleted_at IS NULL BEGIN
	UPDATE issue_blocked_counts SET blocked = blocked - 1 WHERE company_id = old.company_id;
END;
