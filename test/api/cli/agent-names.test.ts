import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCore, createCompany, createAgent, type TestCore } from '../../helpers/core.js';
import { CLI, requireBuiltCli } from '../durability/serve-process.js';

const run = promisify(execFile);

let t: TestCore;
let acme: string;
beforeAll(async () => {
  requireBuiltCli();
  t = await startCore({});
  acme = await createCompany(t, 'Acme');
  const other = await createCompany(t, 'Other');
  await createAgent(t, acme, { name: 'Ava', role: 'ceo' });
  await createAgent(t, acme, { name: 'Sam', role: 'engineer' });
  await createAgent(t, other, { name: 'Sam', role: 'engineer' });
});
afterAll(async () => {
  await t.close();
});

/** The built CLI against the test server; never throws, returns what a user would see. */
async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args, ...(args.includes('--help') ? [] : ['--url', t.url, '--token', t.boardToken])], { timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('agents named on the command line', () => {
  it('heartbeat invoke takes an agent name and runs that agent', async () => {
    const res = await cli('heartbeat', 'invoke', 'ava', '--watch');
    expect(res.stdout, res.stderr).toMatch(/^wake request [0-9a-f-]{36}\n/);
    const agents = (await t.api('GET', `/api/companies/${acme}/agents`)).body as { id: string; name: string }[];
    const ava = agents.find((a) => a.name === 'Ava')!;
    const runs = await t.api('GET', `/api/companies/${acme}/heartbeat-runs?agentId=${ava.id}`);
    expect(runs.body.items).toHaveLength(1);
  });

  it('run watch takes an agent name and follows its newest run', async () => {
    const res = await cli('run', 'watch', 'Ava');
    const agents = (await t.api('GET', `/api/companies/${acme}/agents`)).body as { id: string; name: string }[];
    const ava = agents.find((a) => a.name === 'Ava')!;
    const runs = await t.api('GET', `/api/companies/${acme}/heartbeat-runs?agentId=${ava.id}`);
    expect(res.code, res.stderr).toBe(runs.body.items[0].status === 'succeeded' ? 0 : 1);
  });

  it('refuses an ambiguous name with both candidates, and takes --company to choose', async () => {
    const ambiguous = await cli('heartbeat', 'invoke', 'Sam');
    expect(ambiguous.code).not.toBe(0);
    expect(ambiguous.stderr).toMatch(/"Sam" names 2 agents: Sam in Acme \([0-9a-f-]{36}\); Sam in Other \([0-9a-f-]{36}\)\. Pass the id, or --company <name>/);
    const chosen = await cli('heartbeat', 'invoke', 'Sam', '--company', 'Other');
    expect(chosen.code, chosen.stderr).toBe(0);
    const unknown = await cli('run', 'watch', 'Nobody');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('No agent named "Nobody"');
  });
});

describe('--help', () => {
  it('every command has help with a description', async () => {
    const top = await cli('--help');
    expect(top.stdout).toContain('Run a company of AI agents on this computer');
    const commands = [...top.stdout.split('Commands:')[1]!.matchAll(/^ {2}(\S+)/gm)].map((m) => m[1]!).filter((c) => c !== 'help');
    expect(commands.length).toBeGreaterThan(5);
    for (const command of commands) {
      const help = await cli(command, '--help');
      expect(help.code, command).toBe(0);
      expect(help.stdout, command).toMatch(new RegExp(`^Usage: headcount ${command}`));
      // A description line follows the usage line.
      expect(help.stdout.split('\n')[2]?.trim().length, command).toBeGreaterThan(10);
      const subs = help.stdout.includes('Commands:') ? [...help.stdout.split('Commands:')[1]!.matchAll(/^ {2}(\S+)/gm)].map((m) => m[1]!).filter((c) => c !== 'help') : [];
      for (const sub of subs) {
        const subHelp = await cli(command, sub, '--help');
        expect(subHelp.code, `${command} ${sub}`).toBe(0);
        expect(subHelp.stdout.split('\n')[2]?.trim().length, `${command} ${sub}`).toBeGreaterThan(10);
      }
    }
    // About forty CLI processes one after the other: 13 s on an idle 2-core machine, more beside
    // the other test files, so the bound is the suite's patience, not a speed claim.
  }, 120_000);
});
