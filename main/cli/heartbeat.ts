import type { Command } from 'commander';
import { createClient, resolveConnection, type ApiClient } from './client.js';
import { exitCodeFor, watchRun, type RunInfo } from './run-watch.js';
import { isUuid, newestRunOf, resolveAgentRef } from './agent-ref.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface ConnectionFlags {
  url?: string;
  token?: string;
}

/** The run that consumed a wake request (wakes during a run coalesce into the next run). */
export async function findRunForWake(client: ApiClient, agentId: string, wakeRequestId: string, timeoutMs = 60_000, pollMs = 250): Promise<RunInfo> {
  const agent = await client.request<{ companyId: string }>('GET', `/api/agents/${encodeURIComponent(agentId)}`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { items } = await client.request<{ items: (RunInfo & { reasons: { wakeRequestId: string | null }[] })[] }>(
      'GET',
      `/api/companies/${agent.companyId}/heartbeat-runs?agentId=${encodeURIComponent(agentId)}&limit=20`,
    );
    const run = items.find((r) => r.reasons.some((w) => w.wakeRequestId === wakeRequestId));
    if (run) return run;
    if (Date.now() > deadline) throw new Error(`No run picked up wake request ${wakeRequestId} within ${Math.round(timeoutMs / 1000)} s (was it skipped? see the agent's activity)`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

const connectionOptions = (cmd: Command): Command =>
  cmd
    .option('--url <url>', 'URL of the running Headcount server', 'http://127.0.0.1:3100')
    .option('--token <token>', 'board token (default $SERVICE_BOARD_TOKEN or <home>/board-token)');

/** Adds `headcount heartbeat invoke` and `headcount run watch`. */
export function registerHeartbeatCommands(program: Command, home: () => string): void {
  const client = (opts: ConnectionFlags) => createClient(resolveConnection(opts, home()));

  const heartbeat = program.command('heartbeat').description('heartbeats of agents on a running server');
  connectionOptions(
    heartbeat
      .command('invoke <agent>')
      .description('start a heartbeat of an agent (its name or id) now; prints the wake request id and the run id to follow')
      .option('--company <company>', 'look the agent name up in this company (name or id) only')
      .option('--issue <issueId>', 'focus the run on this issue (UUID or identifier like ACME-42)')
      .option('-w, --watch', 'follow the resulting run; exit 0 when it succeeds, 1 otherwise'),
  ).action(async (agentRef: string, opts: ConnectionFlags & { company?: string; issue?: string; watch?: boolean }) => {
    const api = client(opts);
    const agentId = await resolveAgentRef(api, agentRef, opts.company);
    // The invoke route takes the issue's UUID; an identifier (ACME-42) is looked up first.
    const issueId = opts.issue && !UUID.test(opts.issue) ? (await api.request<{ id: string }>('GET', `/api/issues/${encodeURIComponent(opts.issue)}`)).id : opts.issue;
    const invoked = await api.request<{ wakeRequestId: string; runId: string | null; coalesced: boolean }>(
      'POST',
      `/api/agents/${encodeURIComponent(agentId)}/heartbeat/invoke`,
      issueId ? { issueId } : {},
    );
    process.stdout.write(`wake request ${invoked.wakeRequestId}\n`);
    process.stdout.write(
      invoked.runId
        ? `run ${invoked.runId} queued${invoked.coalesced ? ' (joined a run already queued)' : ''}\n`
        : 'run not queued yet: the agent is rate limited; the wake waits for the reset\n',
    );
    if (!opts.watch) return;
    // A rate-limited agent's wake has no run yet: wait for the one that picks it up.
    const runId = invoked.runId ?? (await findRunForWake(api, agentId, invoked.wakeRequestId)).id;
    process.exitCode = exitCodeFor(await watchRun(api, runId));
  });

  const run = program.command('run').description('heartbeat runs on a running server');
  connectionOptions(
    run
      .command('watch <run>')
      .description('print a run transcript (a run id, or an agent name or id for its newest run) from the start, follow it live; exit 0 when the run succeeded, 1 otherwise')
      .option('--company <company>', 'look the agent name up in this company (name or id) only'),
  ).action(async (ref: string, opts: ConnectionFlags & { company?: string }) => {
    const api = client(opts);
    // A UUID is a run id unless no such run exists; then it may be an agent's id.
    let runId = ref;
    if (!isUuid(ref)) runId = await newestRunOf(api, await resolveAgentRef(api, ref, opts.company));
    else {
      const runError = await api.request('GET', `/api/heartbeat-runs/${encodeURIComponent(ref)}`).then(() => null, (err: unknown) => err);
      // Neither a run nor an agent: say so about the run, what the id most likely was meant to be.
      if (runError) runId = await newestRunOf(api, ref).catch(() => Promise.reject(runError));
    }
    process.exitCode = exitCodeFor(await watchRun(api, runId));
  });
}
