/**
 * What an imported row must not carry over as it was: an import starts nothing by itself (README,
 * "Export and import of a company"). Applied to each raw row (SQL column names, SQLite values)
 * after its ids were replaced, before it is inserted.
 */
export function quietOnArrival(table: string, row: Record<string, unknown>, exportedAt: string): void {
  switch (table) {
    case 'heartbeat_runs':
      // Its processes lived on the exporting machine; a pid here would name an unrelated process.
      row.processes = null;
      if (row.status === 'queued' || row.status === 'running') {
        Object.assign(row, { status: 'lost', pid: null, error_code: 'exported_while_active', error_message: 'The run was active when its company was exported', finished_at: row.finished_at ?? exportedAt });
      }
      break;
    case 'wake_requests':
      if (row.status === 'pending') Object.assign(row, { status: 'skipped', skip_reason: 'imported', processed_at: exportedAt });
      break;
    case 'agents':
      // The board looks at what it imported (commands, working directories, schedules) and resumes
      // each agent itself. Drafts, terminated and already paused agents stay as they were.
      if (row.status === 'idle' || row.status === 'running' || row.status === 'error') Object.assign(row, { status: 'paused', pause_reason: 'manual' });
      break;
    case 'agent_heartbeat_settings':
      row.enabled = 0; // the interval is kept for the board to turn back on
      break;
    case 'projects':
      // A repository path (and the setup command run in its clones) is the exporting machine's, and
      // from a stranger's archive it could name any repository here: the board sets it again.
      Object.assign(row, { workspace_repo_path: null, workspace_base_branch: null, setup_command: null });
      break;
    case 'routines':
      // No firing until the board turns the routine on; a webhook URL handed out for the other
      // machine does not open this one (the board rotates a new token).
      Object.assign(row, { enabled: 0, webhook_token_hash: null });
      break;
    case 'crm_sequences':
      row.status = 'paused'; // no outreach step is sent until the board resumes the sequence
      break;
    case 'crm_activities':
      if (row.status === 'sending') {
        // Cut short on the other machine: it may have been delivered there, and is never retried here.
        Object.assign(row, { status: 'failed', quota_day: null, possibly_sent: 1, error_code: 'exported_while_sending', error_message: 'The message was being sent when its company was exported; it may have been delivered' });
      } else if (row.status === 'draft_pending_approval' && row.approved_at !== null && row.approved_at !== undefined) {
        // An approval given on the other machine is not acted on here (start-up recovery would send it).
        Object.assign(row, { approved_at: null, decision: row.decision === 'board_approved' ? 'queue_for_manual' : row.decision });
      }
      break;
  }
  // Secrets keep their rows but come without versions (the values stayed behind): the secret lists
  // no versions, and a run referencing it fails naming it, until the board sets a value again.
}
