import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import type { Actor } from '../../../main/core/kernel/actor.js';
import type { Clock } from '../../../main/core/kernel/clock.js';
import { inTransaction } from '../../../main/core/context.js';
import { startCore, type ApiResponse, type TestCore } from '../../helpers/core.js';

/** A syntactically valid UUID that names nothing. */
export const MISSING_ID = '00000000-0000-4000-8000-000000000000';

/**
 * A clock that moves forward one millisecond per reading, so records created one after the other
 * never share a timestamp and "oldest first" orderings are deterministic.
 */
export function tickingClock(start = Date.now()): Clock {
  let ms = start;
  return { now: () => new Date(ms++) };
}

export const startAgentsCore = (): Promise<TestCore> => startCore({ clock: tickingClock() });

/** Asserts the error contract: status, stable code, human message, and (optionally) the field named first. */
export function expectError(res: ApiResponse<any>, status: number, code: string, field?: string): void {
  const label = `${status} ${code} ${res.text}`;
  expect(res.status, label).toBe(status);
  expect(res.headers.get('content-type') ?? '', label).toContain('application/json');
  expect(res.body.code, label).toBe(code);
  expect(typeof res.body.error, label).toBe('string');
  expect(res.body.error.length, label).toBeGreaterThan(0);
  if (field) {
    // The message names the field (or a field inside it) first: "body.adapterConfig.cwd: must be ...".
    const named = res.body.error.startsWith(`${field}:`) || res.body.error.startsWith(`${field}.`);
    expect(named, `error should start with "${field}" — ${label}`).toBe(true);
  }
}

/** The problems listed in a validation error's details, by path. */
export const problemPaths = (res: ApiResponse<any>): string[] =>
  ((res.body?.details?.problems ?? []) as { path: string }[]).map((p) => p.path);

export const sha256 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');

/** Reads a key's last_used_at straight from the database. */
export function keyLastUsed(t: TestCore, keyId: string): string | null {
  const row = t.core.database.sqlite.prepare('SELECT last_used_at AS v FROM agent_api_keys WHERE id = ?').get(keyId) as
    | { v: string | null }
    | undefined;
  return row?.v ?? null;
}

/**
 * A successful request with an agent key records its use after the response is sent. Calls
 * /api/agents/me once and waits for that write, so a later snapshot cannot race with it.
 */
export async function useKeyAndSettle(t: TestCore, key: string): Promise<void> {
  const me = await t.api('GET', '/api/agents/me', { token: key });
  expect(me.status, me.text).toBe(200);
  const keyId = (
    t.core.database.sqlite.prepare('SELECT id FROM agent_api_keys WHERE key_hash = ?').get(sha256(key)) as { id: string }
  ).id;
  for (let i = 0; i < 200 && keyLastUsed(t, keyId) === null; i++) await new Promise((r) => setTimeout(r, 5));
  expect(keyLastUsed(t, keyId)).not.toBeNull();
  // Let any other in-flight onResponse hook finish as well.
  await new Promise((r) => setTimeout(r, 20));
}

/**
 * Creates a draft agent (as a hire request would) straight through the service, inside the core's
 * own transaction wrapper (activity records queue their events on it).
 */
export function createDraftAgent(t: TestCore, companyId: string, name: string, reportsTo?: string): { id: string } {
  const { agents, ctx } = t.core.services;
  const board: Actor = { kind: 'board' };
  const row = inTransaction(ctx, (tx) =>
    agents.insertAgent(tx, board, companyId, {
      name,
      role: 'engineer',
      adapterType: 'process',
      adapterConfig: { command: 'echo' },
      status: 'draft',
      ...(reportsTo ? { reportsTo } : {}),
    }),
  );
  return { id: row.id };
}

export interface ActivityItem {
  id: string;
  companyId: string | null;
  actorType: string;
  actorId: string | null;
  action: string;
  entityType: string;
  entityId: string;
  summary: string;
  details: Record<string, unknown> | null;
  createdAt: string;
}

/** Every activity record of a company, newest first (follows the cursor). */
export async function allActivity(t: TestCore, companyId: string): Promise<ActivityItem[]> {
  const out: ActivityItem[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page++) {
    const query: string = cursor ? `?limit=200&cursor=${encodeURIComponent(cursor)}` : '?limit=200';
    const res = await t.api('GET', `/api/companies/${companyId}/activity${query}`);
    expect(res.status, res.text).toBe(200);
    out.push(...(res.body.items as ActivityItem[]));
    cursor = res.body.nextCursor;
    if (!cursor) break;
  }
  return out;
}
