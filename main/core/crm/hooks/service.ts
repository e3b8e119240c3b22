import { eq } from 'drizzle-orm';
import type { CoreContext } from '../../context.js';
import type { Actor } from '../../kernel/actor.js';
import { forbidden } from '../../kernel/errors.js';
import { issues } from '../../issues/schema.js';
import type { IssueStatusChange, IssueStatusListener } from '../../issues/service.js';
import type { BrandVoiceService } from '../brand-voice/service.js';
import { hookApplies, type HookDefinition } from './config.js';
import { HookRegistry, type HooksRegistryStatus } from './registry.js';
import { runBrandVoiceCoverage } from './coverage.js';

export interface PostIssueHooksDeps {
  brandVoice: BrandVoiceService;
  issues: { onStatusChanged(listener: IssueStatusListener): () => void };
}

const assertAdmin = (actor: Actor, what: string) => {
  // The board token is the instance administrator (spec 5 rule 5); agent credentials never are.
  if (actor.kind !== 'board') throw forbidden(`Only an instance administrator may ${what}`, 'forbidden');
};

/**
 * Post-issue hooks: the registry of `$SERVICE_HOME/post-issue-hooks.json` and the runner that
 * follows committed issue status changes. A hook runs after the issue request has answered and its
 * failure is logged, never returned to the caller.
 */
export function createPostIssueHooks(ctx: CoreContext, deps: PostIssueHooksDeps) {
  const registry = new HookRegistry(ctx.paths.home, ctx.clock, ctx.logger);
  const running = new Map<string, Promise<void>>();
  let unsubscribe: (() => void) | null = null;

  function run(hook: HookDefinition, change: IssueStatusChange): Promise<unknown> {
    switch (hook.type) {
      case 'brand-voice-coverage':
        return runBrandVoiceCoverage(ctx, deps.brandVoice, hook, { id: change.issueId, companyId: change.companyId });
    }
  }

  function onStatusChanged(change: IssueStatusChange): void {
    const hooks = registry.active();
    if (hooks.length === 0) return;
    const projectId = ctx.db.select({ projectId: issues.projectId }).from(issues).where(eq(issues.id, change.issueId)).get()?.projectId ?? null;
    for (const hook of hooks) {
      if (!hookApplies(hook, { companyId: change.companyId, projectId, to: change.to })) continue;
      const key = `${hook.id}:${change.issueId}`;
      // One run per hook and issue at a time: a quick done → reopen → done is covered by the run in flight.
      if (running.has(key)) continue;
      const p = Promise.resolve()
        .then(() => run(hook, change))
        .then(
          () => undefined,
          (err: unknown) => {
            ctx.logger.error('post-issue hook failed (the issue change stands)', { hookId: hook.id, issueId: change.issueId, message: err instanceof Error ? err.message : String(err) });
          },
        )
        .finally(() => running.delete(key));
      running.set(key, p);
    }
  }

  return {
    registry,
    /** Core start: load the file (missing = no hooks, invalid = no hooks and a loud log) and follow issues. */
    start(): HooksRegistryStatus {
      const status = registry.loadAtStart();
      unsubscribe ??= deps.issues.onStatusChanged(onStatusChanged);
      return status;
    },
    stop(): void {
      unsubscribe?.();
      unsubscribe = null;
    },
    /** Resolves once every hook run in flight has finished (close, tests). */
    async idle(): Promise<void> {
      while (running.size > 0) await Promise.all([...running.values()]);
    },
    reload(actor: Actor): HooksRegistryStatus {
      assertAdmin(actor, 'reload the post-issue hooks');
      return registry.reload();
    },
    status(actor: Actor): HooksRegistryStatus {
      assertAdmin(actor, 'read the post-issue hooks');
      return registry.status();
    },
  };
}

export type PostIssueHooks = ReturnType<typeof createPostIssueHooks>;
