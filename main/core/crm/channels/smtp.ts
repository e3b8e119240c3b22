import nodemailer from 'nodemailer';
import type { SendMailOptions } from 'nodemailer';
import { z } from 'zod';
import { ChannelError } from './types.js';

/**
 * Outbox config of the SMTP-based channels (email, calendar), in one of two forms:
 * - with `host` and `port`: the secret (if any) is the password; `secure` = implicit TLS (port 465),
 *   otherwise STARTTLS is used when the server offers it;
 * - without `host`: the secret is the whole connection, an `smtp://user:pass@host:port` or
 *   `smtps://…` URL, and the config holds only who the mail is from.
 * The password is never in the config either way: the secret is resolved at send time.
 */
export const SmtpConfig = z
  .strictObject({
    host: z.string().trim().min(1).max(253).optional(),
    port: z.int().min(1).max(65_535).optional(),
    secure: z.boolean().optional(),
    fromAddress: z.email().max(254),
    fromName: z.string().trim().max(200).optional(),
    /** SMTP login; default the fromAddress. */
    username: z.string().trim().min(1).max(254).optional(),
  })
  .superRefine((c, ctx) => {
    if (c.host !== undefined && c.port === undefined) ctx.addIssue({ code: 'custom', path: ['port'], message: 'is required with host' });
    if (c.host !== undefined) return;
    for (const key of ['port', 'secure', 'username'] as const) {
      if (c[key] !== undefined) ctx.addIssue({ code: 'custom', path: [key], message: 'goes with host; without host the connection comes from the secret (an smtp:// or smtps:// URL)' });
    }
  });
export type SmtpConfig = z.infer<typeof SmtpConfig>;

/** The outbox has no host of its own: the secret must carry the connection. */
export const smtpNeedsSecret = (config: Record<string, unknown>): string | null =>
  config.host === undefined ? 'is required when config has no host: the secret is the whole SMTP connection URL (smtp:// or smtps://)' : null;

interface SmtpConnection {
  host: string;
  port?: number;
  secure: boolean;
  auth?: { user: string; pass: string };
}

const notUrl = () =>
  new ChannelError('smtp_secret_not_url', 'The outbox config has no host, and its secret is not an smtp:// or smtps:// URL with a host');

/**
 * Parsed here rather than handed to nodemailer as a URL string: nodemailer reads transport options
 * from the query (`?sendmail=true&path=…` selects a local binary), so only scheme, login, host and
 * port are taken and the query is ignored. Error messages never quote the secret.
 */
export function parseSmtpUrl(secret: string): SmtpConnection {
  let url: URL;
  try {
    url = new URL(secret.trim());
  } catch {
    throw notUrl();
  }
  if ((url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '') throw notUrl();
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      throw notUrl();
    }
  };
  const user = decode(url.username);
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    ...(url.port ? { port: Number(url.port) } : {}),
    secure: url.protocol === 'smtps:',
    ...(user || url.password ? { auth: { user, pass: decode(url.password) } } : {}),
  };
}

function connectionOf(config: SmtpConfig, secret: string | null): SmtpConnection {
  if (config.host === undefined) {
    if (secret === null) throw new ChannelError('smtp_no_connection', 'The outbox has neither a host nor a secret holding an smtp:// URL');
    return parseSmtpUrl(secret);
  }
  return {
    host: config.host,
    ...(config.port !== undefined ? { port: config.port } : {}),
    secure: config.secure ?? false,
    ...(secret !== null ? { auth: { user: config.username ?? config.fromAddress, pass: secret } } : {}),
  };
}

/** One message over a fresh SMTP connection (sends are rare and serialized per outbox; no pool to leak). */
export async function sendSmtp(config: SmtpConfig, secret: string | null, message: SendMailOptions): Promise<string | null> {
  const connection = connectionOf(config, secret);
  const transport = nodemailer.createTransport({
    ...connection,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
  });
  try {
    const from = config.fromName ? { name: config.fromName, address: config.fromAddress } : config.fromAddress;
    const info = await transport.sendMail({ ...message, from });
    if (info.rejected.length > 0) throw new ChannelError('smtp_rejected', `The SMTP server rejected the recipient`);
    return info.messageId ?? null;
  } catch (err) {
    if (err instanceof ChannelError) throw err;
    const e = err as { code?: string; responseCode?: number; message?: string };
    // nodemailer's messages carry the server's reply, never the password.
    // nodemailer's messages carry the server's reply, never the password; the decoded URL password
    // is scrubbed anyway (the dispatcher scrubs only the secret as stored, which is the whole URL).
    let text = `SMTP send failed: ${e.code ?? ''} ${e.message ?? String(err)}`.trim();
    if (connection.auth?.pass) text = text.replaceAll(connection.auth.pass, '[redacted]');
    throw new ChannelError(e.responseCode ? `smtp_${e.responseCode}` : 'smtp_error', text);
  } finally {
    transport.close();
  }
}
