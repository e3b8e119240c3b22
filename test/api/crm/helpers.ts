import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import { startCore, createCompany, type TestCore } from '../../helpers/core.js';
import type { CoreOptions } from '../../../main/core/index.js';

export interface CrmWorld {
  t: TestCore;
  companyId: string;
  base: string;
}

/** A core with one company and the global dry-run switch in the position the test needs. */
export async function crmWorld(options: { forceDryRun?: boolean; core?: Partial<CoreOptions> } = {}): Promise<CrmWorld> {
  const t = await startCore({ heartbeats: false, ...options.core });
  const companyId = await createCompany(t, 'Outreach Co');
  const res = await t.api('PUT', '/api/admin/crm/settings', { body: { forceDryRun: options.forceDryRun ?? false } });
  if (res.status !== 200) throw new Error(`settings: ${res.status} ${res.text}`);
  return { t, companyId, base: `/api/companies/${companyId}/crm` };
}

export async function createSecretUri(w: CrmWorld, name: string, value: string): Promise<string> {
  const res = await w.t.api('POST', `/api/companies/${w.companyId}/secrets`, { body: { name, value } });
  if (res.status !== 201) throw new Error(`secret: ${res.status} ${res.text}`);
  return `secret://${res.body.id}:latest`;
}

export async function createOutbox(w: CrmWorld, body: Record<string, unknown>): Promise<any> {
  const res = await w.t.api('POST', `${w.base}/outboxes`, { body });
  if (res.status !== 201) throw new Error(`outbox: ${res.status} ${res.text}`);
  return res.body;
}

export async function allow(w: CrmWorld, kind: string, value: string, extra: Record<string, unknown> = {}): Promise<any> {
  const res = await w.t.api('POST', `${w.base}/allowlist`, { body: { kind, value, ...extra } });
  if (res.status !== 201) throw new Error(`allowlist: ${res.status} ${res.text}`);
  return res.body;
}

export async function rule(w: CrmWorld, body: Record<string, unknown>): Promise<any> {
  const res = await w.t.api('POST', `${w.base}/approval-rules`, { body });
  if (res.status !== 201) throw new Error(`rule: ${res.status} ${res.text}`);
  return res.body;
}

/** A rule that approves everything, so a test about channels is not about approval. */
export const autoApproveAll = (w: CrmWorld) => rule(w, { action: 'auto_approve', priority: 1000 });

export async function send(w: CrmWorld, body: Record<string, unknown>, token?: string) {
  return w.t.api('POST', `${w.base}/send`, { body, ...(token ? { token } : {}) });
}

export async function quotaOf(w: CrmWorld, outboxId: string): Promise<{ used: number; cap: number; remaining: number }> {
  const res = await w.t.api('GET', `${w.base}/quota`);
  const row = (res.body as any[]).find((r) => r.outboxId === outboxId);
  if (!row) throw new Error('no quota row');
  return row;
}

export interface SmtpSink {
  port: number;
  messages: { envelopeTo: string[]; user: string | undefined; raw: Buffer; mail: ParsedMail }[];
  close(): Promise<void>;
}

/** A real SMTP server on loopback (no TLS, login required with `password`). */
export async function smtpSink(password: string): Promise<SmtpSink> {
  const messages: SmtpSink['messages'] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.password === password) return cb(null, { user: auth.username });
      return cb(new Error('Invalid username or password'));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw)
          .then((mail) => {
            messages.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), user: session.user as string | undefined, raw, mail });
            cb();
          })
          .catch(cb);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { port, messages, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export interface PlatformRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export interface PlatformStub {
  baseUrl: string;
  requests: PlatformRequest[];
  /** Answer of the next requests: status and JSON body; `delayMs` holds the answer back. */
  respond: { status: number; body: unknown; delayMs?: number };
  close(): Promise<void>;
}

/** A local HTTP server standing in for a platform API; it records every request. */
export async function platformStub(): Promise<PlatformStub> {
  const stub: PlatformStub = { baseUrl: '', requests: [], respond: { status: 201, body: { id: 'msg-1' } }, close: async () => {} };
  let n = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      stub.requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: text ? JSON.parse(text) : null });
      const { status, body, delayMs } = stub.respond;
      n += 1;
      const answer = body && typeof body === 'object' && 'id' in body ? { ...body, id: `${String((body as { id: unknown }).id)}-${n}` } : body;
      setTimeout(() => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer));
      }, delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stub.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return stub;
}
