export interface ServiceEnvInput {
  apiUrl: string;
  /** The run token: short-lived, bound to this agent, company and run. */
  apiKey: string;
  runId: string;
  agent: { id: string; companyId: string };
  taskId?: string | null;
  taskTitle?: string | null;
  wakeReason?: string | null;
}

/**
 * The `SERVICE_*` environment every heartbeat process gets (DESIGN.md, "run env"). Values that are
 * unknown are left out rather than set empty, so a CLI can tell "no task" from "empty task".
 */
export function buildServiceEnv(input: ServiceEnvInput): Record<string, string> {
  const env: Record<string, string> = {
    SERVICE_API_URL: input.apiUrl,
    SERVICE_API_KEY: input.apiKey,
    SERVICE_RUN_ID: input.runId,
    SERVICE_AGENT_ID: input.agent.id,
    SERVICE_COMPANY_ID: input.agent.companyId,
  };
  if (input.taskId) env.SERVICE_TASK_ID = input.taskId;
  if (input.taskTitle) env.SERVICE_TASK_TITLE = input.taskTitle;
  if (input.wakeReason) env.SERVICE_WAKE_REASON = input.wakeReason;
  return env;
}
