import { readdirSync } from 'node:fs';
import path from 'node:path';
import { issues } from '../../../../main/core/issues/schema.js';
import { createCompany, startCore, type ApiResponse, type TestCore } from '../../../helpers/core.js';

export interface World {
  t: TestCore;
  companyId: string;
  issueId: string;
}

let issueNumber = 0;

/** Inserts an issue row directly, so these tests do not depend on the issues API. */
export function insertIssue(t: TestCore, companyId: string, identifier: string): string {
  const id = crypto.randomUUID();
  const at = new Date().toISOString();
  t.core.services.ctx.db
    .insert(issues)
    .values({
      id,
      companyId,
      number: ++issueNumber,
      identifier,
      title: `Issue ${identifier}`,
      status: 'todo',
      priority: 'medium',
      priorityRank: 2,
      createdByType: 'board',
      createdAt: at,
      updatedAt: at,
      lastActivityAt: at,
    })
    .run();
  return id;
}

export async function startWorld(): Promise<World> {
  const t = await startCore();
  const companyId = await createCompany(t, 'Acme');
  return { t, companyId, issueId: insertIssue(t, companyId, 'ACME-1') };
}

export function form(bytes: Buffer, type: string, name: string, field = 'file'): FormData {
  const f = new FormData();
  f.append(field, new Blob([new Uint8Array(bytes)], { type }), name);
  return f;
}

export interface UploadOptions {
  token?: string;
  companyId?: string;
  issueId?: string;
}

export function upload(w: World, body: FormData, o: UploadOptions = {}): Promise<ApiResponse<any>> {
  return w.t.api('POST', `/api/companies/${o.companyId ?? w.companyId}/issues/${o.issueId ?? w.issueId}/attachments`, {
    raw: body,
    ...(o.token ? { token: o.token } : {}),
  });
}

/** A company's folder of stored files: attachments/<companyId>. */
export const attachmentsDir = (t: TestCore, companyId: string): string => path.join(t.home, 'attachments', companyId);
/** The names of every stored file, whichever company's folder holds it. */
export const storedFiles = (t: TestCore): string[] => {
  const root = path.join(t.home, 'attachments');
  return readdirSync(root)
    .flatMap((folder) => readdirSync(path.join(root, folder)))
    .sort();
};

/** Fetches content with the raw Response, so headers and bytes are exactly what was sent. */
export function content(t: TestCore, id: string, token = t.boardToken): Promise<Response> {
  return fetch(`${t.url}/api/attachments/${id}/content`, { headers: { authorization: `Bearer ${token}` } });
}
