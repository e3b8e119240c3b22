import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CompanyEventBody, EVENT_KINDS } from '../../../main/core/kernel/events.js';

const root = path.resolve(import.meta.dirname, '../../..');

function sources(dir: string): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  for (const e of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(rel));
    else if (/\.tsx?$/.test(e.name)) out.push({ file: rel, text: readFileSync(path.join(root, rel), 'utf8') });
  }
  return out;
}

describe('the event catalogue', () => {
  const core = sources('main/core').filter((s) => s.file !== path.join('main', 'core', 'kernel', 'events.ts'));

  it('has a publisher in the core for every kind, spelled out where it is raised', () => {
    const unpublished = EVENT_KINDS.filter((kind) => !core.some((s) => s.text.includes(`'${kind}'`)));
    expect(unpublished).toEqual([]);
  });

  it('lists every kind the core raises: no activity action outside it', () => {
    // Any quoted `area.verb` string handed to recordActivity is typed against the catalogue; this
    // catches the other way round, a kind-shaped literal beside an `action:` key that the catalogue lacks.
    const raised = new Set<string>();
    for (const s of core) for (const m of s.text.matchAll(/action: '([a-z_]+(?:\.[a-z_]+)+)'/g)) raised.add(m[1]!);
    expect([...raised].filter((k) => !(EVENT_KINDS as readonly string[]).includes(k))).toEqual([]);
  });

  it('validates payloads by kind and refuses an unknown kind', () => {
    const activity = { activityId: 'a', entityType: 'issue', entityId: 'i', summary: 'Issue created', actorType: 'board', actorId: null };
    expect(CompanyEventBody.safeParse({ type: 'issue.created', data: activity }).success).toBe(true);
    expect(CompanyEventBody.safeParse({ type: 'issue.creatd', data: activity }).success).toBe(false);
    expect(CompanyEventBody.safeParse({ type: 'run.log', data: activity }).success).toBe(false);
    expect(CompanyEventBody.safeParse({ type: 'run.log', data: { runId: 'r', agentId: 'a', stream: 'stdout', offset: 0, nextOffset: 2, data: 'hi' } }).success).toBe(true);
  });
});
