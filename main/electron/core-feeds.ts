import { countDistinct, eq } from 'drizzle-orm';
import { EventBus, type CompanyEvent, type PayloadOf } from '../core/events/bus.js';
import type { EventKind } from '../core/kernel/events.js';
import { activity } from '../core/activity/schema.js';
import { heartbeatRuns } from '../core/heartbeat/schema.js';
import type { Queryable } from '../core/context.js';
import type { Services } from '../core/services.js';

/**
 * The shell follows the core in-process: it hears every company's events as they are published
 * (no polling, no HTTP), which drives the tray count and the native notifications.
 */
export class ShellEventBus extends EventBus {
  private readonly anyListeners = new Set<(event: CompanyEvent) => void>();

  override publish<T extends EventKind>(companyId: string, type: T, data: PayloadOf<T>, at?: string): CompanyEvent {
    const event = super.publish(companyId, type, data, at);
    for (const listener of this.anyListeners) {
      // A shell listener failing must never break the core's publish (it runs after a commit).
      try {
        listener(event);
      } catch {
        /* reported by the listener itself */
      }
    }
    return event;
  }

  /** Every company's events, including companies created after the call. */
  subscribeAll(listener: (event: CompanyEvent) => void): () => void {
    this.anyListeners.add(listener);
    return () => this.anyListeners.delete(listener);
  }
}

/** Agents with a heartbeat running now, across companies (the tray's number). */
export function countRunningAgents(db: Queryable): number {
  const row = db.select({ n: countDistinct(heartbeatRuns.agentId) }).from(heartbeatRuns).where(eq(heartbeatRuns.status, 'running')).get();
  return row?.n ?? 0;
}

/**
 * The inbox of every company not archived: how many items wait in all (the tray's second number)
 * and the newest of each company, with its company (the inbox notices).
 */
export function inboxItems(services: Pick<Services, 'companies' | 'inbox'>): {
  count: number;
  items: { companyId: string; id: string; kind: string; title: string; summary: string; link: { path: string } }[];
} {
  const items = [];
  let count = 0;
  for (const c of services.companies.all({ kind: 'board' }, false)) {
    const inbox = services.inbox.list({ kind: 'board' }, c.id, { limit: 100 });
    count += inbox.count;
    for (const item of inbox.items) items.push({ ...item, companyId: c.id });
  }
  return { count, items };
}


/** The details of the activity record behind an event (why an issue changed, which interaction). */
export function activityDetails(db: Queryable, activityId: string): Record<string, unknown> | null {
  const row = db.select({ details: activity.details }).from(activity).where(eq(activity.id, activityId)).get();
  return row?.details ?? null;
}

/** Event types after which the number of running agents may have changed. */
export const RUN_COUNT_EVENTS: ReadonlySet<string> = new Set([
  'run.started',
  'run.succeeded',
  'run.failed',
  'run.timed_out',
  'run.cancelled',
  'run.lost',
]);
