-- Full-text search over issue titles, descriptions and comments (main/core/search). drizzle-kit
-- cannot declare virtual tables, so this migration is written by hand.
-- search_docs gives every searchable text a stable integer rowid: issues and comments have TEXT
-- primary keys, whose implicit rowids VACUUM may renumber, so the FTS index cannot key on them.
CREATE TABLE `search_docs` (
	`id` integer PRIMARY KEY,
	`company_id` text NOT NULL,
	`issue_id` text NOT NULL,
	`comment_id` text
);
--> statement-breakpoint
CREATE INDEX `search_docs_issue_idx` ON `search_docs` (`issue_id`, `comment_id`);
--> statement-breakpoint
CREATE INDEX `search_docs_comment_idx` ON `search_docs` (`comment_id`) WHERE `comment_id` IS NOT NULL;
--> statement-breakpoint
CREATE VIRTUAL TABLE `search_fts` USING fts5(title, body, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');
--> statement-breakpoint
CREATE TRIGGER `search_issues_ai` AFTER INSERT ON `issues` BEGIN
	INSERT INTO search_docs (company_id, issue_id, comment_id) VALUES (new.company_id, new.id, NULL);
	INSERT INTO search_fts (rowid, title, body) VALUES (last_insert_rowid(), new.title, new.description);
END;
--> statement-breakpoint
CREATE TRIGGER `search_issues_au` AFTER UPDATE OF title, description ON `issues` BEGIN
	UPDATE search_fts SET title = new.title, body = new.description
		WHERE rowid = (SELECT id FROM search_docs WHERE issue_id = new.id AND comment_id IS NULL);
END;
--> statement-breakpoint
CREATE TRIGGER `search_issues_ad` AFTER DELETE ON `issues` BEGIN
	DELETE FROM search_fts WHERE rowid IN (SELECT id FROM search_docs WHERE issue_id = old.id);
	DELETE FROM search_docs WHERE issue_id = old.id;
END;
--> statement-breakpoint
CREATE TRIGGER `search_comments_ai` AFTER INSERT ON `issue_comments` BEGIN
	INSERT INTO search_docs (company_id, issue_id, comment_id) VALUES (new.company_id, new.issue_id, new.id);
	INSERT INTO search_fts (rowid, title, body) VALUES (last_insert_rowid(), '', new.body);
END;
--> statement-breakpoint
CREATE TRIGGER `search_comments_au` AFTER UPDATE OF body ON `issue_comments` BEGIN
	UPDATE search_fts SET body = new.body WHERE rowid = (SELECT id FROM search_docs WHERE comment_id = new.id);
END;
--> statement-breakpoint
CREATE TRIGGER `search_comments_ad` AFTER DELETE ON `issue_comments` BEGIN
	DELETE FROM search_fts WHERE rowid IN (SELECT id FROM search_docs WHERE comment_id = old.id);
	DELETE FROM search_docs WHERE comment_id = old.id;
END;
--> statement-breakpoint
-- What existed before this migration is indexed now.
INSERT INTO search_docs (company_id, issue_id, comment_id) SELECT company_id, id, NULL FROM issues;
--> statement-breakpoint
INSERT INTO search_docs (company_id, issue_id, comment_id) SELECT company_id, issue_id, id FROM issue_comments;
--> statement-breakpoint
INSERT INTO search_fts (rowid, title, body)
	SELECT d.id, i.title, i.description FROM search_docs d JOIN issues i ON i.id = d.issue_id WHERE d.comment_id IS NULL;
--> statement-breakpoint
INSERT INTO search_fts (rowid, title, body)
	SELECT d.id, '', c.body FROM search_docs d JOIN issue_comments c ON c.id = d.comment_id;
