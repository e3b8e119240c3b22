import type { TestCore } from '../../helpers/core.js';

export async function createIssue(t: TestCore, companyId: string, body: Record<string, unknown> = {}, token?: string): Promise<any> {
  const res = await t.api('POST', `/api/companies/${companyId}/issues`, { body: { title: 'Write the plan', ...body }, ...(token ? { token } : {}) });
  if (res.status !== 201) throw new Error(`create issue: ${res.status} ${res.text}`);
  return res.body;
}

export const checkout = (t: TestCore, issue: string, token: string, body: Record<string, unknown>, runId?: string) =>
  t.api('POST', `/api/issues/${issue}/checkout`, { token, body, ...(runId ? { headers: { 'x-service-run-id': runId } } : {}) });

/** Rows of a table, straight from the database file. */
export const rows = (t: TestCore, sql: string, ...params: unknown[]): any[] => t.core.database.sqlite.prepare(sql).all(...params);
