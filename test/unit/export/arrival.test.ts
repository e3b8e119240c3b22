import { describe, expect, it } from 'vitest';
import { quietOnArrival } from '../../../main/core/export/arrival.js';

const at = '2026-01-01T00:00:00.000Z';
const arrive = (table: string, row: Record<string, unknown>) => {
  const copy = { ...row };
  quietOnArrival(table, copy, at);
  return copy;
};

describe('an imported row arrives quiet', () => {
  it('agents paused, schedules off (interval kept), drafts and terminated agents as they were', () => {
    for (const status of ['idle', 'running', 'error']) expect(arrive('agents', { status, pause_reason: null })).toMatchObject({ status: 'paused', pause_reason: 'manual' });
    expect(arrive('agents', { status: 'paused', pause_reason: 'budget' })).toMatchObject({ status: 'paused', pause_reason: 'budget' });
    for (const status of ['draft', 'terminated']) expect(arrive('agents', { status, pause_reason: null }).status).toBe(status);
    expect(arrive('agent_heartbeat_settings', { enabled: 1, interval_sec: 60 })).toMatchObject({ enabled: 0, interval_sec: 60 });
  });

  it('active runs lost, pending wakes skipped', () => {
    expect(arrive('heartbeat_runs', { status: 'running', pid: 4242, finished_at: null })).toMatchObject({ status: 'lost', pid: null, finished_at: at });
    expect(arrive('heartbeat_runs', { status: 'succeeded', pid: 4242 })).toMatchObject({ status: 'succeeded', pid: 4242 });
    // The process list (pids with start times) named processes of the exporting machine.
    expect(arrive('heartbeat_runs', { status: 'succeeded', processes: '[{"pid":4242,"startTime":"1"}]' }).processes).toBeNull();
    expect(arrive('wake_requests', { status: 'pending' })).toMatchObject({ status: 'skipped', skip_reason: 'imported' });
  });

  it('no outreach: sequences paused, an approval given elsewhere not acted on, an interrupted send failed', () => {
    expect(arrive('crm_sequences', { status: 'active' }).status).toBe('paused');
    expect(arrive('crm_activities', { status: 'draft_pending_approval', approved_at: at, decision: 'board_approved' })).toMatchObject({ approved_at: null, decision: 'queue_for_manual' });
    expect(arrive('crm_activities', { status: 'sending', quota_day: '2026-01-01' })).toMatchObject({ status: 'failed', quota_day: null, possibly_sent: 1 });
    expect(arrive('crm_activities', { status: 'sent' }).status).toBe('sent');
  });

  it('routines off and without a webhook token: nothing fires until the board turns them on and rotates the URL', () => {
    expect(arrive('routines', { enabled: 1, webhook_token_hash: 'ab'.repeat(32), title: 'Triage' })).toMatchObject({ enabled: 0, webhook_token_hash: null, title: 'Triage' });
  });

  it('projects without their repository or setup command: an archive cannot point agents at a repository here', () => {
    expect(arrive('projects', { name: 'Site', workspace_repo_path: '/home/founder/secret', workspace_base_branch: 'main', setup_command: 'curl x | sh' })).toMatchObject({ name: 'Site', workspace_repo_path: null, workspace_base_branch: null, setup_command: null });
  });
});
