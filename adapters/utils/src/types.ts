/**
 * The adapter module contract (spec 2.9). Built-in adapters and plugins implement
 * `ServerAdapterModule`, returned by the package-root function `createServerAdapter()`.
 */

export interface AdapterModel {
  id: string;
  label: string;
}

export interface AdapterAgent {
  id: string;
  name: string;
  companyId: string;
  role?: string;
  title?: string;
  [key: string]: unknown;
}

export interface AdapterRuntime {
  /** Base URL of the local API, as agents must call it. */
  apiUrl: string;
  /** The run token the process uses as its bearer credential. */
  apiKey: string;
  /** Resolved `adapterConfig.env` (secret references already decrypted). */
  env: Record<string, string>;
  /** Session state persisted by the previous run of this agent and task, if any. */
  sessionParams: Record<string, unknown> | null;
  /** Prompt rendered from `promptTemplate` (or the default continue-work text). */
  prompt: string;
  wakeReason?: string | null;
  [key: string]: unknown;
}

export interface ExecutionContext {
  config: Record<string, unknown>;
  agent: AdapterAgent;
  runtime: AdapterRuntime;
  context: { taskId?: string | null; taskTitle?: string | null };
  runId: string;
  onLog: (stream: 'stdout' | 'stderr', chunk: string) => void;
  /** Structured facts learned during the run (model, session id, command line, pid...). */
  onMeta: (meta: Record<string, unknown>) => void;
  /** Aborted when the run is cancelled (board cancel, budget stop, shutdown). */
  signal?: AbortSignal;
}

export interface UsageReport {
  provider: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  costCents: number;
}

export interface ExecutionResult {
  exitCode: number | null;
  timedOut: boolean;
  signal?: string | null;
  /** Persisted session state for the next run; `null` clears it. */
  sessionParams?: Record<string, unknown> | null;
  usage?: UsageReport | null;
  /** A run can exit 0 and still have failed (the CLI reported an error result). */
  errorCode?: string | null;
  errorMessage?: string | null;
  [key: string]: unknown;
}

export interface EnvironmentCheck {
  name: string;
  ok: boolean;
  detail?: string;
}

export interface EnvironmentTestResult {
  ok: boolean;
  checks: EnvironmentCheck[];
  /** What to do when something is missing, in a sentence a founder can follow. */
  hint?: string;
}

export interface EnvironmentTestContext {
  config: Record<string, unknown>;
  env: Record<string, string>;
}

export interface SessionCodec<P = Record<string, unknown>> {
  deserialize(raw: unknown): P | null;
  serialize(params: P): unknown | null;
  getDisplayId(params: P): string | null;
}

export interface SkillEntry {
  name: string;
  path?: string;
  description?: string;
  installed: boolean;
}

export interface SkillsSnapshot {
  adapterType: string;
  supported: boolean;
  mode: 'ephemeral' | string;
  desiredSkills: string[];
  entries: SkillEntry[];
  warnings: string[];
}

export interface SkillsContext {
  config: Record<string, unknown>;
  agent: AdapterAgent;
}

export interface DetectedModel {
  model: string | null;
  provider: string | null;
  source: string;
  candidates: string[];
}

export interface ServerAdapterModule {
  /** snake_case, globally unique. */
  type: string;
  label?: string;
  execute(ctx: ExecutionContext): Promise<ExecutionResult>;
  testEnvironment(ctx: EnvironmentTestContext): Promise<EnvironmentTestResult>;
  models: AdapterModel[];
  /** Markdown with use-when / do-not-use-when guidance. */
  agentConfigurationDoc: string;
  sessionCodec?: SessionCodec;
  listSkills?(ctx: SkillsContext): Promise<SkillsSnapshot>;
  syncSkills?(ctx: SkillsContext, desiredSkills: string[]): Promise<SkillsSnapshot>;
  detectModel?(): Promise<DetectedModel>;
}
