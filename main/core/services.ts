import type { CoreContext } from './context.js';
import { createActivityService } from './activity/service.js';
import { createAgentKeysService } from './agents/keys.js';
import { createBoardSessionsService } from './auth/sessions.js';
import { createSearchService } from './search/service.js';
import { createAgentsService } from './agents/service.js';
import { createAssetsService } from './assets/service.js';
import { createAttachmentsService } from './issues/attachments/service.js';
import { createCompaniesService } from './companies/service.js';
import { createGoalsService } from './goals/service.js';
import { createProjectsService } from './projects/service.js';
import { createWorkspacesService } from './workspaces/service.js';
import { createCostsService } from './costs/service.js';
import { createIssuesService } from './issues/service.js';
import { createCheckoutService } from './issues/checkout.js';
import { createCommentsService } from './issues/comments.js';
import { createIssueDocumentsService } from './issues/documents/service.js';
import { createIssueInteractionsService } from './issues/interactions/service.js';
import { createSecretsService } from './secrets/service.js';
import { createApprovalsService } from './approvals/service.js';
import { createCrmService } from './crm/service.js';
import { HeartbeatEngine } from './heartbeat/engine.js';
import { createRunsService } from './heartbeat/runs-service.js';
import { PluginService, type PluginInstallOptions } from './plugins/service.js';
import type { RunTokens } from './heartbeat/run-token.js';
import { createAdapterEnvironmentService } from './adapter-environment/service.js';
import { createBrandVoiceService } from './crm/brand-voice/service.js';
import { brandVoiceRuntimeSkill } from './crm/brand-voice/skill.js';
import type { BrandVoiceChecker } from './crm/brand-voice/checker.js';
import { createPostIssueHooks } from './crm/hooks/service.js';
import { createSequencesService } from './crm/sequences/service.js';
import { createSequenceScheduler } from './crm/sequences/scheduler.js';
import { createBlockersService } from './issues/blockers.js';
import { createLabelsService } from './labels/service.js';
import { createRoutinesService } from './routines/service.js';
import { createRoutineScheduler } from './routines/scheduler.js';
import { createInboxService } from './inbox/service.js';

export interface ServicesOptions {
  /** The loopback URL agents call, known once the server listens. */
  apiUrl: () => string;
  tokens: RunTokens;
  /** How adapter plugins are installed (npm location, extra npm arguments, timeout). */
  plugins?: PluginInstallOptions;
  /** A brand-voice checker for every company instead of each company's chat-completions settings. */
  brandVoiceChecker?: BrandVoiceChecker;
  /** The engine's safety-net tick (wakes poke it at once); default 1 s. */
  heartbeatTickMs?: number;
}

/** Every area service, built once per core from the same context, and the heartbeat engine. */
export function createServices(ctx: CoreContext, options: ServicesOptions) {
  const areas = {
    ctx,
    activity: createActivityService(ctx),
    agents: createAgentsService(ctx),
    agentKeys: createAgentKeysService(ctx),
    boardSessions: createBoardSessionsService(ctx),
    search: createSearchService(ctx),
    assets: createAssetsService(ctx),
    attachments: createAttachmentsService(ctx),
    companies: createCompaniesService(ctx),
    goals: createGoalsService(ctx),
    projects: createProjectsService(ctx),
    costs: createCostsService(ctx),
    issues: createIssuesService(ctx),
    checkout: createCheckoutService(ctx),
    comments: createCommentsService(ctx),
    issueDocuments: createIssueDocumentsService(ctx),
    issueInteractions: createIssueInteractionsService(ctx),
    secrets: createSecretsService(ctx),
    approvals: createApprovalsService(ctx),
    plugins: new PluginService(ctx, options.plugins),
    workspaces: createWorkspacesService(ctx),
  };
  // Folders of workspace creations a crash interrupted.
  areas.workspaces.recover();
  const engine = new HeartbeatEngine(ctx, {
    tokens: options.tokens,
    apiUrl: options.apiUrl,
    resolveEnv: (companyId, env) => areas.secrets.resolveEnv(companyId, env),
    recordCost: (actor, companyId, input) => areas.costs.record(actor, companyId, input),
    tokenGraceSec: RUN_TOKEN_GRACE_SEC,
    workspaces: areas.workspaces,
    // Called per run, after every service below exists.
    companySkills: (companyId) => (crmBrandVoice.isConfigured(companyId) ? [brandVoiceRuntimeSkill()] : []),
  }, options.heartbeatTickMs);
  const adapterEnvironment = createAdapterEnvironmentService(ctx, { resolveEnv: (companyId, env) => areas.secrets.resolveEnv(companyId, env) });
  // The CRM resolves an outbox's secret only at the moment it sends.
  const crm = createCrmService(ctx, { resolveSecret: async (companyId, ref) => (await areas.secrets.resolveSecretRef(companyId, ref)).value });
  // Brand voice (key resolved per call), post-issue hooks (follow committed issue changes) and the
  // sequence scheduler, which sends through the CRM's one dispatcher.
  const crmBrandVoice = createBrandVoiceService(ctx, {
    resolveSecret: async (companyId, ref) => (await areas.secrets.resolveSecretRef(companyId, ref)).value,
    resolveEnv: (companyId, env) => areas.secrets.resolveEnv(companyId, env),
    checker: options.brandVoiceChecker,
  });
  const crmHooks = createPostIssueHooks(ctx, { brandVoice: crmBrandVoice, issues: areas.issues });
  const crmSequences = createSequencesService(ctx);
  const crmSequenceScheduler = createSequenceScheduler(ctx, { dispatcher: () => crm.dispatcher });
  // Routines: the scheduler and the webhook/api firings share one set of test hooks (firing.ts).
  const routineScheduler = createRoutineScheduler(ctx);
  const routines = createRoutinesService(ctx, { apiUrl: options.apiUrl, hooks: routineScheduler.hooks });
  const work = { blockers: createBlockersService(ctx), labels: createLabelsService(ctx), routines, routineScheduler, inbox: createInboxService(ctx) };
  return { ...areas, ...work, engine, runs: createRunsService(ctx, engine), adapterEnvironment, crm, crmBrandVoice, crmHooks, crmSequences, crmSequenceScheduler };
}

/** A run's token keeps working this long after the run ends, for the CLI's last API calls. */
export const RUN_TOKEN_GRACE_SEC = 60;

export type Services = ReturnType<typeof createServices>;

declare module './kernel/route.js' {
  // Routes see the services object built above (kernel/route.ts names no domain itself).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface RouteServices extends Services {}
}
