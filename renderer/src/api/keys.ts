/**
 * Query keys of the board's server state. Convention: company-scoped lists start with
 * ['company', companyId, <area>], records with [<kind>, id], a record's parts with [<kind>, id, part].
 * Live events invalidate by these keys through the targets of live.ts: a page whose data a new
 * event kind changes adds its key to a target there (or names the target for that kind).
 */
export const keys = {
  companies: () => ['companies'] as const,
  company: (cid: string) => ['company', cid] as const,
  agents: (cid: string) => ['company', cid, 'agents'] as const,
  org: (cid: string) => ['company', cid, 'org'] as const,
  issues: (cid: string, filters?: Record<string, unknown>) => (filters ? (['company', cid, 'issues', filters] as const) : (['company', cid, 'issues'] as const)),
  approvals: (cid: string, filters?: Record<string, unknown>) => (filters ? (['company', cid, 'approvals', filters] as const) : (['company', cid, 'approvals'] as const)),
  costs: (cid: string, part?: string) => (part ? (['company', cid, 'costs', part] as const) : (['company', cid, 'costs'] as const)),
  runs: (cid: string, filters?: Record<string, unknown>) => (filters ? (['company', cid, 'runs', filters] as const) : (['company', cid, 'runs'] as const)),
  projects: (cid: string) => ['company', cid, 'projects'] as const,
  goals: (cid: string) => ['company', cid, 'goals'] as const,
  secrets: (cid: string) => ['company', cid, 'secrets'] as const,
  activity: (cid: string) => ['company', cid, 'activity'] as const,
  routines: (cid: string) => ['company', cid, 'routines'] as const,
  routine: (id: string, part?: string) => (part ? (['routine', id, part] as const) : (['routine', id] as const)),
  labels: (cid: string) => ['company', cid, 'labels'] as const,
  inbox: (cid: string) => ['company', cid, 'inbox'] as const,
  agent: (id: string, part?: string) => (part ? (['agent', id, part] as const) : (['agent', id] as const)),
  issue: (id: string, part?: string) => (part ? (['issue', id, part] as const) : (['issue', id] as const)),
  approval: (id: string, part?: string) => (part ? (['approval', id, part] as const) : (['approval', id] as const)),
  run: (id: string) => ['run', id] as const,
  adapters: () => ['adapters'] as const,
  system: () => ['system'] as const,
};
