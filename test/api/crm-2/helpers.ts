import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { startCore, type TestCore } from '../../helpers/core.js';
import type { CoreOptions } from '../../../main/core/index.js';
import { CreateOutboxBody, CreateAllowlistEntryBody, CreateRuleBody, CreateContentPieceBody } from '../../../main/core/crm/contract.js';

export const board = { kind: 'board' } as const;
export const sha256 = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');

/** A core for CRM-2 tests: no heartbeat engine, no sequence interval (tests tick by hand). */
export const startCrmCore = (options: Partial<CoreOptions> = {}) => startCore({ heartbeats: false, sequences: false, ...options });

/** A clock the test moves by hand. */
export function manualClock(start: string) {
  let now = new Date(start).getTime();
  return {
    now: () => new Date(now),
    set: (iso: string) => {
      now = new Date(iso).getTime();
    },
    advance: (ms: number) => {
      now += ms;
    },
  };
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: any;
}

/** A local HTTP server standing in for a remote API; `respond` decides each answer. */
export async function fakeApi(respond: (req: RecordedRequest, n: number) => { status?: number; body: unknown; delayMs?: number } | Promise<{ status?: number; body: unknown; delayMs?: number }>) {
  const calls: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const rec: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: raw ? JSON.parse(raw) : null };
      calls.push(rec);
      void Promise.resolve(respond(rec, calls.length)).then(async (answer) => {
        if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
        res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
        res.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A chat-completions answer whose message content is `content` (an object is serialized). */
export const chatAnswer = (content: unknown) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content: typeof content === 'string' ? content : JSON.stringify(content) }, finish_reason: 'stop' }],
});

export async function createSecret(t: TestCore, companyId: string, name: string, value: string): Promise<string> {
  const res = await t.api('POST', `/api/companies/${companyId}/secrets`, { body: { name, value } });
  if (res.status !== 201) throw new Error(`create secret: ${res.status} ${res.text}`);
  return `secret://${res.body.id}:latest`;
}

export const crm = (t: TestCore) => t.core.services.crm;
export const outbox = (t: TestCore, companyId: string, body: Record<string, unknown>) => crm(t).outboxes.create(board, companyId, CreateOutboxBody.parse(body));
export const allow = (t: TestCore, companyId: string, body: Record<string, unknown>) => crm(t).allowlist.create(board, companyId, CreateAllowlistEntryBody.parse(body));
export const rule = (t: TestCore, companyId: string, body: Record<string, unknown>) => crm(t).rules.create(board, companyId, CreateRuleBody.parse(body));
export const piece = (t: TestCore, companyId: string, body: Record<string, unknown>) => crm(t).contentPieces.create(board, companyId, CreateContentPieceBody.parse(body));
