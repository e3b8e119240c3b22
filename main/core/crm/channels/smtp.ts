import nodemailer from 'nodemailer';
import type { SendMailOptions } from 'nodemailer';
import { z } from 'zod';
import { ChannelError } from './types.js';

/**
 * Outbox config of the SMTP-based channels (email, calendar). The password is never here: it is
 * the outbox secret, resolved at send time. `secure` = implicit TLS (port 465); otherwise STARTTLS
 * is used when the server offers it.
 */
export const SmtpConfig = z.strictObject({
  host: z.string().trim().min(1).max(253),
  port: z.int().min(1).max(65_535),
  secure: z.boolean().default(false),
  fromAddress: z.email().max(254),
  fromName: z.string().trim().max(200).optional(),
  /** SMTP login; default the fromAddress. */
  username: z.string().trim().min(1).max(254).optional(),
});
export type SmtpConfig = z.infer<typeof SmtpConfig>;

/** One message over a fresh SMTP connection (sends are rare and serialized per outbox; no pool to leak). */
export async function sendSmtp(config: SmtpConfig, secret: string | null, message: SendMailOptions): Promise<string | null> {
  const transport = nodemailer.createTransport({
    host: config.host,
    port: config.port,
    secure: config.secure,
    ...(secret !== null ? { auth: { user: config.username ?? config.fromAddress, pass: secret } } : {}),
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
    throw new ChannelError(e.responseCode ? `smtp_${e.responseCode}` : 'smtp_error', `SMTP send failed: ${e.code ?? ''} ${e.message ?? String(err)}`.trim());
  } finally {
    transport.close();
  }
}
