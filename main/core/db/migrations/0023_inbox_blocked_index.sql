-- The inbox's long-blocked issues (issue 17): their page walked the list index once per priority and
-- their count scanned every entry of the blocked status; this partial index holds only the blocked
-- issues, newest activity first, so neither reads more than it returns and no other write keeps it.
CREATE INDEX `issues_blocked_idx` ON `issues` (`company_id`,"last_activity_at" DESC,`id`) WHERE "issues"."status" = 'blocked' AND "issues"."deleted_at" IS NULL;