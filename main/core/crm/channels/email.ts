import { z } from 'zod';
import type { ChannelAdapter } from './types.js';
import { SmtpConfig, sendSmtp, smtpNeedsSecret } from './smtp.js';
import { utf8Bytes } from '../bytes.js';

const MAX_BODY_BYTES = 512 * 1024;

export const EmailPayload = z.strictObject({
  subject: z.string().trim().min(1).max(998),
  text: z.string().refine((s) => utf8Bytes(s) <= MAX_BODY_BYTES, `must be at most ${MAX_BODY_BYTES} bytes`),
  html: z
    .string()
    .refine((s) => utf8Bytes(s) <= MAX_BODY_BYTES, `must be at most ${MAX_BODY_BYTES} bytes`)
    .optional(),
  replyTo: z.email().optional(),
});

export const emailChannel: ChannelAdapter = {
  channel: 'email',
  contact: 'email',
  kinds: ['message'],
  secret: 'optional',
  secretNeededFor: smtpNeedsSecret,
  configSchema: SmtpConfig,
  payloadSchema: EmailPayload,
  async send({ config, payload, to, secret, activityId }) {
    const c = SmtpConfig.parse(config);
    const p = EmailPayload.parse(payload);
    const messageId = await sendSmtp(c, secret, {
      to,
      subject: p.subject,
      text: p.text,
      ...(p.html !== undefined ? { html: p.html } : {}),
      ...(p.replyTo !== undefined ? { replyTo: p.replyTo } : {}),
      headers: { 'X-Headcount-Activity': activityId },
    });
    return { providerMessageId: messageId };
  },
};
