import path from 'node:path';
import { PACKAGE_ROOT, unpackedPath } from '../core/package-root.js';
import type { ApiClient } from '../cli/client.js';

/**
 * The bundled demo agent; .mjs files are not copied to dist/, so it is found from the package root.
 * The agent runs under a separate Node, so in a packaged app it is read from the unpacked copy.
 */
export const DEMO_AGENT_SCRIPT = unpackedPath(path.join(PACKAGE_ROOT, 'main', 'demo', 'agent.mjs'));

export interface DemoOptions {
  /** Command that runs the agent script: default this process's Node binary (absolute). */
  nodeCommand?: string;
  agentScript?: string;
  /** Base name of the company; taken names get " 2", " 3", ... */
  companyName?: string;
  /** Invoke the three heartbeats at the end (default true). */
  invoke?: boolean;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
}

interface Named {
  id: string;
  name: string;
}
export interface DemoAgent extends Named {
  role: string;
  urlKey: string;
}
export interface DemoIssue {
  id: string;
  identifier: string;
  title: string;
  assigneeAgentId: string;
}
export interface DemoResult {
  company: Named & { issuePrefix: string };
  agents: DemoAgent[];
  issues: DemoIssue[];
  /** Wake request per agent id, when invoked. */
  wakeRequestIds: Record<string, string>;
  urls: { issues: string; runs: string; costs: string; events: string };
}

const TEAM = [
  {
    name: 'Ava',
    role: 'ceo',
    title: 'Chief Executive Officer',
    capabilities: 'Sets the direction of Demo Co and keeps the team focused.',
    issue: { title: 'Write the plan for our first week', description: 'Decide what Demo Co ships first and write it down as a plan.', priority: 'high' },
  },
  {
    name: 'Ben',
    role: 'engineer',
    title: 'Founding Engineer',
    capabilities: 'Builds the product.',
    issue: { title: 'Put up a landing page', description: 'A single page saying what Demo Co does, with a sign-up form.', priority: 'medium' },
  },
  {
    name: 'Cleo',
    role: 'marketer',
    title: 'Head of Marketing',
    capabilities: 'Tells the world about Demo Co.',
    issue: { title: 'Draft the launch announcement', description: 'A short announcement for the launch day.', priority: 'medium' },
  },
] as const;

/** First free name among "Demo Co", "Demo Co 2", ... (archived companies count as taken). */
async function freeCompanyName(client: ApiClient, base: string): Promise<string> {
  const list = await client.request<{ name: string }[]>('GET', '/api/companies?includeArchived=true');
  const taken = new Set(list.map((c) => c.name.toLowerCase()));
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : `${base} ${n}`;
    if (!taken.has(name.toLowerCase())) return name;
  }
}

/**
 * Inside the desktop app process.execPath is the Electron binary: without ELECTRON_RUN_AS_NODE it
 * would open a second app instead of running the agent script as plain Node.
 */
function runAsNodeEnv(command: string): Record<string, string> | undefined {
  return process.versions.electron && command === process.execPath ? { ELECTRON_RUN_AS_NODE: '1' } : undefined;
}

/**
 * Creates a small demo company through the HTTP API of a running server: a CEO and two reports run
 * by the bundled demo agent (process adapter), one todo issue each, and (by default) invokes their
 * heartbeats. Used by `headcount demo` and meant for the app's first-run choice.
 */
export async function setupDemo(client: ApiClient, options: DemoOptions = {}): Promise<DemoResult> {
  const log = options.log ?? (() => {});
  const command = options.nodeCommand ?? process.execPath;
  const script = options.agentScript ?? DEMO_AGENT_SCRIPT;

  const name = await freeCompanyName(client, options.companyName ?? 'Demo Co');
  const company = await client.request<Named & { issuePrefix: string }>('POST', '/api/companies', {
    name,
    description: 'A demo company run by three scripted agents. No model, no API key, no cost beyond a few demo cents.',
  });
  log(`Created company "${company.name}" (${company.id})`);

  const agents: DemoAgent[] = [];
  for (const member of TEAM) {
    const agent = await client.request<DemoAgent>('POST', `/api/companies/${company.id}/agents`, {
      name: member.name,
      role: member.role,
      title: member.title,
      capabilities: member.capabilities,
      reportsTo: agents[0]?.id ?? null,
      adapterType: 'process',
      adapterConfig: { command, args: [script], timeoutSec: 60, graceMs: 2000, ...(runAsNodeEnv(command) ? { env: runAsNodeEnv(command) } : {}) },
    });
    agents.push(agent);
    log(`Hired ${agent.name}, ${member.title}${agents.length > 1 ? `, reporting to ${agents[0]!.name}` : ''}`);
  }

  const issues: DemoIssue[] = [];
  for (const [i, member] of TEAM.entries()) {
    const agent = agents[i]!;
    const issue = await client.request<DemoIssue>('POST', `/api/companies/${company.id}/issues`, {
      ...member.issue,
      status: 'todo',
      assigneeAgentId: agent.id,
    });
    issues.push(issue);
    log(`Opened ${issue.identifier} "${issue.title}" for ${agent.name}`);
  }

  const wakeRequestIds: Record<string, string> = {};
  if (options.invoke ?? true) {
    for (const [i, agent] of agents.entries()) {
      const { wakeRequestId } = await client.request<{ wakeRequestId: string }>('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { issueId: issues[i]!.id });
      wakeRequestIds[agent.id] = wakeRequestId;
      log(`Woke ${agent.name} (wake request ${wakeRequestId})`);
    }
  }

  const base = `${client.url}/api/companies/${company.id}`;
  return {
    company: { id: company.id, name: company.name, issuePrefix: company.issuePrefix },
    agents,
    issues,
    wakeRequestIds,
    urls: { issues: `${base}/issues`, runs: `${base}/heartbeat-runs`, costs: `${base}/costs/summary`, events: `${base}/events` },
  };
}

export interface DemoRun {
  id: string;
  agentId: string;
  status: string;
  exitCode: number | null;
}
type ListedRun = DemoRun & { reasons: { wakeRequestId: string | null }[] };
export interface DemoOutcome {
  finished: boolean;
  runs: DemoRun[];
  issues: { identifier: string; title: string; status: string }[];
  spentCents: number;
}

const OPEN_RUN = ['queued', 'running'];
const OPEN_ISSUE = ['backlog', 'todo', 'in_progress'];

/**
 * Waits until every demo issue has left todo/in_progress and no demo run is active (or the
 * timeout passes), then reports the runs, the issues and the month's spend.
 */
export async function waitForDemo(client: ApiClient, demo: DemoResult, timeoutMs = 60_000, pollMs = 250): Promise<DemoOutcome> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const runs = (await client.request<{ items: ListedRun[] }>('GET', `/api/companies/${demo.company.id}/heartbeat-runs?limit=200`)).items;
    const issues = await Promise.all(demo.issues.map((i) => client.request<{ identifier: string; title: string; status: string }>('GET', `/api/issues/${i.id}`)));
    // Every agent ran, and every wake the demo sent was turned into a run (none still pending).
    const wakes = Object.values(demo.wakeRequestIds);
    const everyAgentRan =
      demo.agents.every((a) => runs.some((r) => r.agentId === a.id)) && wakes.every((w) => runs.some((r) => r.reasons.some((x) => x.wakeRequestId === w)));
    const finished = everyAgentRan && runs.every((r) => !OPEN_RUN.includes(r.status)) && issues.every((i) => !OPEN_ISSUE.includes(i.status));
    if (finished || Date.now() > deadline) {
      const summary = await client.request<{ spentCents: number }>('GET', `/api/companies/${demo.company.id}/costs/summary`);
      return {
        finished,
        runs: runs.map(({ id, agentId, status, exitCode }) => ({ id, agentId, status, exitCode })).reverse(),
        issues: issues.map(({ identifier, title, status }) => ({ identifier, title, status })),
        spentCents: summary.spentCents,
      };
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
