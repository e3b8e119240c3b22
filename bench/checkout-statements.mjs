// The statements of a checkout and a release by the spec's rules, as the server's checkout.ts,
// lookup.ts, blockers.ts and activity/service.ts write them: one copy for the two benches that run
// them without the server (checkout-floor.mjs in SQLite alone, ceiling-server.mjs over HTTP).

// The answer is the issue as JSON written by SQLite (main/core/issues/issue-json.ts), as the
// server's claim and release return it.
const ISSUE_JSON = `json_object(${['id', 'company_id', 'identifier', 'number', 'title', 'description', 'status', 'priority', 'assignee_agent_id', 'parent_id', 'project_id', 'goal_id',
  'billing_code', 'checkout_agent_id', 'checkout_run_id', 'checked_out_at', 'started_at', 'completed_at', 'cancelled_at', 'created_by_type', 'created_by_id', 'created_at',
  'updated_at', 'last_activity_at'].map((c) => `'${c}', ${c}`).join(', ')})`;

/** The prepared statements on `db` (a better-sqlite3 connection to a database the server migrated). */
export function checkoutStatements(db) {
  return {
    runAgent: db.prepare('SELECT agent_id, status FROM heartbeat_runs WHERE id = ?'),
    lock: db.prepare('SELECT id, company_id, identifier, status, checkout_agent_id, checkout_run_id, deleted_at FROM issues WHERE id = ?'),
    // The whole issue as it is: the answer to releasing an issue nobody holds (a no-op).
    issue: db.prepare(`SELECT ${ISSUE_JSON} AS json FROM issues WHERE id = ?`),
    agentRow: db.prepare('SELECT id, company_id, name, status FROM agents WHERE id = ?'),
    blockers: db.prepare("SELECT b.id, b.identifier FROM issue_blockers r JOIN issues b ON b.id = r.blocker_issue_id WHERE r.issue_id = ? AND b.status <> 'done'"),
    // The claim: expected statuses as a JSON list, the owner's re-checkout and adoption branches.
    claim: db.prepare(`UPDATE issues SET status = 'in_progress', assignee_agent_id = @agent, checkout_agent_id = @agent, checkout_run_id = @run,
      checked_out_at = CASE WHEN checkout_agent_id = @agent THEN checked_out_at ELSE @at END, started_at = coalesce(started_at, @at),
      updated_at = @at, last_activity_at = @at
      WHERE id = @id AND ((checkout_agent_id = @agent AND coalesce(checkout_run_id, '') = coalesce(@run, ''))
        OR (status IN (SELECT value FROM json_each(@expected)) AND (checkout_agent_id IS NULL OR (checkout_agent_id = @agent AND @stale = 1))))
      RETURNING ${ISSUE_JSON} AS json`),
    // The release: in_progress goes back to todo, any other status is kept.
    release: db.prepare(`UPDATE issues SET status = CASE WHEN status = 'in_progress' THEN 'todo' ELSE status END, checkout_agent_id = NULL,
      checkout_run_id = NULL, checked_out_at = NULL, updated_at = @at, last_activity_at = @at WHERE id = @id RETURNING status, ${ISSUE_JSON} AS json`),
    entry: db.prepare(`INSERT INTO activity (id, company_id, actor_type, actor_id, action, entity_type, entity_id, summary, details, created_at)
      VALUES (?, ?, 'agent', ?, ?, 'issue', ?, ?, ?, ?)`),
  };
}
