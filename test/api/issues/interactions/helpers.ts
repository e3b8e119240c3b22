import type { TestCore } from '../../../helpers/core.js';
import type { IssueRef } from '../documents/helpers.js';

export * from '../documents/helpers.js';

let keys = 0;
const nextKey = () => `key-${++keys}`;

/** A request_confirmation about the document's given revision (its current one by default). */
export function confirmation(issue: IssueRef, doc: any, over: Record<string, unknown> = {}, payload: Record<string, unknown> = {}) {
  return {
    kind: 'request_confirmation',
    idempotencyKey: nextKey(),
    title: 'Approve the plan',
    payload: {
      version: 1,
      prompt: 'Does this plan look right?',
      target: { type: 'issue_document', issueId: issue.id, documentId: doc.id, key: doc.key, revisionId: doc.revisionId, revisionNumber: doc.revisionNumber },
      ...payload,
    },
    ...over,
  };
}

export function suggestTasks(tasks: Record<string, unknown>[], over: Record<string, unknown> = {}) {
  return { kind: 'suggest_tasks', idempotencyKey: nextKey(), title: 'Split the work', payload: { version: 1, tasks }, ...over };
}

export function questions(qs: Record<string, unknown>[], over: Record<string, unknown> = {}) {
  return { kind: 'ask_user_questions', idempotencyKey: nextKey(), title: 'A few questions', payload: { version: 1, questions: qs }, ...over };
}

/** Posts an interaction and returns it, failing loudly on anything but 201. */
export async function post(t: TestCore, issueId: string, body: unknown, token?: string): Promise<any> {
  const res = await t.api('POST', `/api/issues/${issueId}/interactions`, { body, ...(token ? { token } : {}) });
  if (res.status !== 201) throw new Error(`post interaction: ${res.status} ${res.text}`);
  return res.body;
}

export const act = (t: TestCore, issueId: string, id: string, op: 'accept' | 'reject' | 'respond', body?: unknown, token?: string) =>
  t.api('POST', `/api/issues/${issueId}/interactions/${id}/${op}`, { ...(body !== undefined ? { body } : {}), ...(token ? { token } : {}) });

/** Wake requests stored for an agent, oldest first. */
export function wakes(t: TestCore, agentId: string): any[] {
  return t.core.database.sqlite.prepare('SELECT * FROM wake_requests WHERE agent_id = ? ORDER BY rowid').all(agentId);
}
