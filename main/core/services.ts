import type { CoreContext } from './context.js';
import { createActivityService } from './activity/service.js';
import { createAgentKeysService } from './agents/keys.js';
import { createAgentsService } from './agents/service.js';
import { createAssetsService } from './assets/service.js';
import { createAttachmentsService } from './issues/attachments/service.js';
import { createCompaniesService } from './companies/service.js';
import { createGoalsService } from './goals/service.js';
import { createProjectsService } from './projects/service.js';
import { createCostsService } from './costs/service.js';
import { createIssuesService } from './issues/service.js';
import { createCheckoutService } from './issues/checkout.js';
import { createCommentsService } from './issues/comments.js';
import { createIssueDocumentsService } from './issues/documents/service.js';
import { createIssueInteractionsService } from './issues/interactions/service.js';
import { createSecretsService } from './secrets/service.js';
import { createApprovalsService } from './approvals/service.js';
import { HeartbeatEngine } from './heartbeat/engine.js';
import { createRunsService } from './heartbeat/runs-service.js';
import type { RunTokens } from './heartbeat/run-token.js';

export interface ServicesOptions {
  /** The loopback URL agents call, known once the server listens. */
  apiUrl: () => string;
  tokens: RunTokens;
}

/** Every area service, built once per core from the same context, and the heartbeat engine. */
export function createServices(ctx: CoreContext, options: ServicesOptions) {
  const areas = {
    ctx,
    activity: createActivityService(ctx),
    agents: createAgentsService(ctx),
    agentKeys: createAgentKeysService(ctx),
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
  };
  const engine = new HeartbeatEngine(ctx, {
    tokens: options.tokens,
    apiUrl: options.apiUrl,
    resolveEnv: (companyId, env) => areas.secrets.resolveEnv(companyId, env),
    recordCost: (actor, companyId, input) => areas.costs.record(actor, companyId, input),
    tokenGraceSec: RUN_TOKEN_GRACE_SEC,
  });
  return { ...areas, engine, runs: createRunsService(ctx, engine) };
}

/** A run's token keeps working this long after the run ends, for the CLI's last API calls. */
export const RUN_TOKEN_GRACE_SEC = 60;

export type Services = ReturnType<typeof createServices>;
