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
  /**
   * The product's agent skills for this run (the heartbeat skill). Adapters that support skills
   * hand them to the CLI through an ephemeral directory (see `createEphemeralSkillsDir`).
   */
  skills?: RuntimeSkill[];
  wakeReason?: string | null;
  [key: string]: unknown;
}

export interface RuntimeSkill {
  /** kebab-case directory name, e.g. `headcount-heartbeat`. */
  name: string;
  description: string;
  markdown: string;
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

/**
 * Where a run's cost comes from: the CLI reported it (`reported`), it was computed from the model
 * price table (`priced`), or the model is not in the table (`unpriced`: the usage is recorded, the
 * cost is unknown, never $0).
 */
export type CostStatus = 'reported' | 'priced' | 'unpriced';

export interface UsageReport {
  provider: string;
  model: string;
  /** Input tokens that were not cache reads (cache writes included). */
  inputTokens: number;
  outputTokens: number;
  /** Input tokens read from the provider's prompt cache. */
  cachedInputTokens?: number;
  /** Cents; null exactly when `costStatus` is `unpriced`. */
  costCents: number | null;
  /** Absent means `reported` (adapters written before the price table). */
  costStatus?: CostStatus;
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
  /** What the founder can do about the error (e.g. "run claude /login"). */
  errorHint?: string | null;
  /** With `rate_limited`: no run of this agent starts before this ISO time. */
  rateLimitResetAt?: string | null;
  /** The CLI's final answer or last assistant text, for the run record. */
  summary?: string | null;
  [key: string]: unknown;
}

/** `info` is informational, `warn` does not block, `error` blocks execution (spec 2.9). */
export type EnvironmentCheckLevel = 'info' | 'warn' | 'error';

export interface EnvironmentCheck {
  level: EnvironmentCheckLevel;
  message: string;
  /** What to do about it, in a sentence a founder can follow. */
  hint?: string;
  /** snake_case, e.g. `cli_detected`, `invalid_cwd`. */
  code: string;
}

export interface EnvironmentTestResult {
  adapterType: string;
  /** `fail` exactly when a check has level `error`. */
  status: 'pass' | 'fail';
  checks: EnvironmentCheck[];
  testedAt: string;
}

export interface EnvironmentTestContext {
  config: Record<string, unknown>;
  /**
   * The configuration's plain `env` values. Secret references are never resolved for a check: their
   * names map to a placeholder (`SECRET_NOT_RESOLVED`), so a check can tell that a key is set.
   */
  env: Record<string, string>;
  /** The agent's `inheritEnv` names. */
  inheritEnv?: string[];
  /**
   * Resolves the configuration's secret references, for the one probe that needs a credential (a
   * hello prompt, a gateway connection). Version probes and file checks must not call it.
   */
  resolveSecrets?: () => Promise<Record<string, string>>;
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
  /**
   * The CLI's own state paths that stay writable inside the sandbox, relative to the agent's HOME
   * (`.claude/`: a trailing slash is a folder, created if missing; `.claude.json`: a file, bound
   * when present) or to a folder the agent's env names (`$CODEX_HOME/`). Everything else outside
   * the run's cwd and scratch folder is read-only.
   */
  stateDirs?: string[];
}
