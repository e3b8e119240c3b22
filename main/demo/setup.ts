import path from 'node:path';
import { PACKAGE_ROOT, unpackedPath } from '../core/kernel/package-root.js';
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
  /** Start the story: assign the CEO's issue (which wakes the CEO) and turn on its schedule (default true). */
  invoke?: boolean;
  /**
   * Scales every pause of the story: 1 (default, or $HEADCOUNT_DEMO_PACE) takes a few minutes,
   * 0.01 a few seconds (tests).
   */
  pace?: number;
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
  assigneeAgentId: string | null;
}
export interface DemoResult {
  company: Named & { issuePrefix: string };
  agents: DemoAgent[];
  /** The CEO's issue, where the story starts. */
  issues: DemoIssue[];
  pace: number;
}

/** The demo company's monthly budget: the engineers' cost reports cross its 80% warning on the way. */
export const DEMO_BUDGET_CENTS = 100;
/** Seconds between the CEO's scheduled heartbeats at pace 1. */
const CEO_INTERVAL_SEC = 20;

const TEAM = [
  { name: 'Ava', role: 'ceo', title: 'Chief Executive Officer', capabilities: 'Sets the direction of Demo Co, asks the board when it must, and keeps the team moving.' },
  { name: 'Ben', role: 'engineer', title: 'Founding Engineer', capabilities: 'Builds the product.' },
] as const;

/** The pace from the option, else $HEADCOUNT_DEMO_PACE, else 1; nonsense falls back to 1. */
export function demoPace(option?: number, env: NodeJS.ProcessEnv = process.env): number {
  const value = option ?? (env.HEADCOUNT_DEMO_PACE ? Number(env.HEADCOUNT_DEMO_PACE) : 1);
  return Number.isFinite(value) && value >= 0 && value <= 100 ? value : 1;
}

/** First free name among "Demo Co", "Demo Co 2", ... (archived companies count as taken). */
async function freeCompanyName(client: ApiClient, base: string): Promise<string> {
  const list = await client.all<{ name: string }>('/api/companies?includeArchived=true');
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
function runAsNodeEnv(command: string): Record<string, string> {
  return process.versions.electron && command === process.execPath ? { ELECTRON_RUN_AS_NODE: '1' } : {};
}

/**
 * Creates the demo company through the HTTP API of a running server: a CEO and an engineer run by
 * the bundled demo agent (process adapter), a monthly budget, the CEO's first issue and the CEO's
 * heartbeat schedule. The story then runs itself through real heartbeats (main/demo/agent.mjs).
 * Used by `headcount demo` and the onboarding's "Start the demo company".
 */
export async function setupDemo(client: ApiClient, options: DemoOptions = {}): Promise<DemoResult> {
  const log = options.log ?? (() => {});
  const command = options.nodeCommand ?? process.execPath;
  const script = options.agentScript ?? DEMO_AGENT_SCRIPT;
  const pace = demoPace(options.pace);
  const start = options.invoke ?? true;

  const name = await freeCompanyName(client, options.companyName ?? 'Demo Co');
  const company = await client.request<Named & { issuePrefix: string }>('POST', '/api/companies', {
    name,
    description: 'A demo company run by scripted agents: no model, no API key, no real cost.',
    budgetMonthlyCents: DEMO_BUDGET_CENTS,
  });
  log(`Created company "${company.name}" (${company.id}), budget ${DEMO_BUDGET_CENTS} cents a month`);

  const agents: DemoAgent[] = [];
  for (const member of TEAM) {
    const agent = await client.request<DemoAgent>('POST', `/api/companies/${company.id}/agents`, {
      ...member,
      reportsTo: agents[0]?.id ?? null,
      adapterType: 'process',
      // A slow pace makes long heartbeats: the timeout grows with it.
      adapterConfig: { command, args: [script], timeoutSec: Math.max(60, Math.ceil(300 * pace)), graceMs: 2000, env: { HEADCOUNT_DEMO_PACE: String(pace), ...runAsNodeEnv(command) } },
    });
    agents.push(agent);
    log(`Hired ${agent.name}, ${member.title}${agents.length > 1 ? `, reporting to ${agents[0]!.name}` : ''}`);
  }
  const ceo = agents[0]!;

  // The CEO looks at the company on a schedule, as a real CEO agent would: that is how it notices
  // a pending approval, an answered question or a failed run. Idle (its issue done), it sleeps.
  await client.request('PUT', `/api/agents/${ceo.id}/heartbeat-settings`, { intervalSec: Math.max(1, Math.round(CEO_INTERVAL_SEC * pace)), enabled: start, skipWhenIdle: true });

  const issue = await client.request<DemoIssue>('POST', `/api/companies/${company.id}/issues`, {
    title: 'Set the direction for Demo Co',
    description: 'Write the strategy, get it approved by the board, and get the team working on it.',
    priority: 'high',
    status: start ? 'todo' : 'backlog',
    assigneeAgentId: start ? ceo.id : null,
  });
  log(`Opened ${issue.identifier} "${issue.title}"${start ? ` for ${ceo.name}` : ''}`);

  return { company: { id: company.id, name: company.name, issuePrefix: company.issuePrefix }, agents, issues: [issue], pace };
}
