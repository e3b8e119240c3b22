import type { Actor } from '../kernel/actor.js';
import type { CoreContext } from '../context.js';
import { createDispatcher, type DispatcherDeps } from './dispatcher.js';
import { createOutboxesService } from './outboxes.js';
import { createAllowlistService } from './allowlist.js';
import { createRulesService } from './rules.js';
import { createContentPiecesService } from './content-pieces.js';
import { createActivitiesService } from './activities.js';
import { recoverCrm } from './recovery.js';
import { toActivity } from './present.js';
import type { SendInput } from './contract.js';

/** The CRM area: one dispatcher shared by every sender, and the services around it. */
export function createCrmService(ctx: CoreContext, deps: DispatcherDeps) {
  const dispatcher = createDispatcher(ctx, deps);
  const activities = createActivitiesService(ctx);
  return {
    dispatcher,
    outboxes: createOutboxesService(ctx),
    allowlist: createAllowlistService(ctx),
    rules: createRulesService(ctx),
    contentPieces: createContentPiecesService(ctx),
    activities,

    /** POST /crm/send: every outcome is the activity with its status (HTTP 200). */
    async send(actor: Actor, companyId: string, input: SendInput) {
      const { activity, replayed } = await dispatcher.dispatch({
        companyId,
        actor,
        channel: input.channel,
        outboxId: input.outboxId,
        to: input.to,
        kind: input.kind,
        payload: input.payload,
        contentPieceId: input.contentPieceId,
        tags: input.tags,
        clientDedupKey: input.clientDedupKey,
      });
      return { ...toActivity(activity), replayed };
    },

    async approve(actor: Actor, companyId: string, activityId: string) {
      const { activity } = await dispatcher.approve(actor, companyId, activityId);
      return toActivity(activity);
    },

    async bulkApprove(actor: Actor, companyId: string, ids: readonly string[]) {
      const outcomes = await dispatcher.bulkApprove(actor, companyId, ids);
      return { approved: outcomes.length, results: outcomes.map((o) => toActivity(o.activity)) };
    },

    /** Core start: finalize attempts a crash left mid-flight; resume approved drafts. */
    recover: () => recoverCrm(ctx, dispatcher),
  };
}

export type CrmService = ReturnType<typeof createCrmService>;
