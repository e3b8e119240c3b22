import type { CoreContext } from './context.js';
import { createActivityService } from './activity/service.js';
import { createAgentKeysService } from './agents/keys.js';
import { createAgentsService } from './agents/service.js';
import { createAssetsService } from './assets/service.js';
import { createAttachmentsService } from './issues/attachments/service.js';
import { createCompaniesService } from './companies/service.js';
import { createGoalsService } from './goals/service.js';
import { createProjectsService } from './projects/service.js';
import { createIssuesService } from './issues/service.js';
import { createCheckoutService } from './issues/checkout.js';
import { createCommentsService } from './issues/comments.js';
import { createIssueDocumentsService } from './issues/documents/service.js';
import { createIssueInteractionsService } from './issues/interactions/service.js';

/** Every area service, built once per core from the same context. */
export function createServices(ctx: CoreContext) {
  return {
    ctx,
    activity: createActivityService(ctx),
    agents: createAgentsService(ctx),
    agentKeys: createAgentKeysService(ctx),
    assets: createAssetsService(ctx),
    attachments: createAttachmentsService(ctx),
    companies: createCompaniesService(ctx),
    goals: createGoalsService(ctx),
    projects: createProjectsService(ctx),
    issues: createIssuesService(ctx),
    checkout: createCheckoutService(ctx),
    comments: createCommentsService(ctx),
    issueDocuments: createIssueDocumentsService(ctx),
    issueInteractions: createIssueInteractionsService(ctx),
  };
}

export type Services = ReturnType<typeof createServices>;
