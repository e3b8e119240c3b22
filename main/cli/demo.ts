import type { Command } from 'commander';
import { createClient, resolveConnection } from './client.js';
import { setupDemo, waitForDemo } from '../demo/setup.js';

/** `headcount demo`: a demo company on a running server, its three heartbeats, and what happened. */
export function registerDemoCommand(program: Command, home: () => string): void {
  program
    .command('demo')
    .description('create "Demo Co" (a CEO and two reports run by the bundled demo agent) on a running server and wake them')
    .option('--url <url>', 'URL of the running Headcount server', 'http://127.0.0.1:3100')
    .option('--token <token>', 'board token (default $SERVICE_BOARD_TOKEN or <home>/board-token)')
    .option('--no-wait', 'do not wait for the heartbeats to finish')
    .action(async (opts: { url?: string; token?: string; wait: boolean }) => {
      const out = (line: string) => void process.stdout.write(line + '\n');
      const client = createClient(resolveConnection(opts, home()));
      const demo = await setupDemo(client, { log: out });
      out('');
      out(`Issues:   ${demo.urls.issues}`);
      out(`Runs:     ${demo.urls.runs}`);
      out(`Costs:    ${demo.urls.costs}`);
      if (!opts.wait) {
        out('Follow a run with: headcount run watch <runId>');
        return;
      }
      out('');
      out('Waiting for the heartbeats...');
      const outcome = await waitForDemo(client, demo);
      const names = new Map(demo.agents.map((a) => [a.id, a.name]));
      for (const run of outcome.runs) out(`  ${names.get(run.agentId) ?? run.agentId}: run ${run.id} ${run.status}  (headcount run watch ${run.id})`);
      for (const issue of outcome.issues) out(`  ${issue.identifier} ${issue.status.padEnd(11)} ${issue.title}`);
      out(`  spent this month: ${outcome.spentCents} cents`);
      if (!outcome.finished) {
        out('The heartbeats have not all finished yet; check the runs above.');
        process.exitCode = 1;
      } else if (outcome.runs.some((r) => r.status !== 'succeeded')) {
        process.exitCode = 1;
      }
    });
}
