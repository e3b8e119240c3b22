-- Search indexing leaves the writing transaction (issue 17). FTS5 writes a new index segment at
-- every commit that touched it: 81 µs of a one-issue transaction against 15 µs a text when many
-- are indexed together. The triggers now only mark the text pending (`search_docs.pending`), and
-- the search service indexes every pending text in one transaction: shortly after the writes, and
-- always before it answers a search, so a search still sees every committed write.
ALTER TABLE `search_docs` ADD `pending` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
CREATE INDEX `search_docs_pending_idx` ON `search_docs` (`id`) WHERE `pending` = 1;
--> statement-breakpoint
DROP TRIGGER `search_issues_ai`;
--> statement-breakpoint
CREATE TRIGGER `search_issues_ai` AFTER INSERT ON `issues` BEGIN
	INSERT INTO search_docs (company_id, issue_id, comment_id, pending) VALUES (new.company_id, new.id, NULL, 1);
END;
--> statement-breakpoint
DROP TRIGGER `search_issues_au`;
--> statement-breakpoint
CREATE TRIGGER `search_issues_au` AFTER UPDATE OF title, description ON `issues`
	WHEN old.title IS NOT new.title OR old.description IS NOT new.description BEGIN
	UPDATE search_docs SET pending = 1 WHERE issue_id = new.id AND comment_id IS NULL;
END;
--> statement-breakpoint
DROP TRIGGER `search_comments_ai`;
--> statement-breakpoint
CREATE TRIGGER `search_comments_ai` AFTER INSERT ON `issue_comments` BEGIN
	INSERT INTO search_docs (company_id, issue_id, comment_id, pending) VALUES (new.company_id, new.issue_id, new.id, 1);
END;
--> statement-breakpoint
DROP TRIGGER `search_comments_au`;
--> statement-breakpoint
CREATE TRIGGER `search_comments_au` AFTER UPDATE OF body ON `issue_comments`
	WHEN old.body IS NOT new.body BEGIN
	UPDATE search_docs SET pending = 1 WHERE comment_id = new.id;
END;
