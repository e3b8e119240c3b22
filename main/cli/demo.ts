import type { Command } from 'commander';
import { createClient, resolveConnection } from './client.js';

interface DemoStarted {
  company: { id: string; name: string; issuePrefix: string };
  agents: { id: string; name: string }[];
  boardUrl: string;
}

/**
 * `headcount demo`: the demo company on a running server, set up by the server itself (POST
 * /api/demo), so its agents run with the server's Node and script. Prints where to watch it.
 */
export function registerDemoCommand(program: Command, home: () => string): void {
  program
    .command('demo')
    .description('start "Demo Co" on a running server: scripted agents (no model, no API key) work for a few minutes; prints the board link')
    .option('--url <url>', 'URL of the running Headcount server', 'http://127.0.0.1:3100')
    .option('--token <token>', 'board token (default $SERVICE_BOARD_TOKEN or <home>/board-token)')
    .option('--pace <factor>', 'scale the pauses of the story (1 = a few minutes; 0.1 = ten times faster)', parseFloat)
    .action(async (opts: { url?: string; token?: string; pace?: number }) => {
      const out = (line: string) => void process.stdout.write(line + '\n');
      const client = createClient(resolveConnection(opts, home()));
      const body = opts.pace !== undefined && Number.isFinite(opts.pace) ? { pace: opts.pace } : {};
      const demo = await client.request<DemoStarted>('POST', '/api/demo', body);
      out(`Started "${demo.company.name}" with ${demo.agents.map((a) => a.name).join(' and ')}.`);
      out('Over the next few minutes the CEO proposes a strategy and asks you a question, hires, and the team works;');
      out('approve or answer on the board when you like (the demo goes ahead without you if you do not).');
      out('');
      out(`board: ${demo.boardUrl}`);
    });
}
