import { z } from 'zod';
import type { ChannelAdapter } from './types.js';
import { PlatformConfig, postPlatform } from './http-api.js';

/**
 * messaging_a (messaging app, recipients by phone number). Request, bearer = outbox secret:
 * POST {baseUrl}/v1/messages {to: "+15551234567", type: "text", text: {body}} → 2xx {id} or {messages: [{id}]}
 */
export const MessagingAPayload = z.strictObject({
  text: z.string().min(1).max(4096),
});

export const messagingAChannel: ChannelAdapter = {
  channel: 'messaging_a',
  contact: 'phone',
  kinds: ['message'],
  secret: 'required',
  configSchema: PlatformConfig,
  payloadSchema: MessagingAPayload,
  async send({ config, payload, to, secret, activityId }) {
    const { baseUrl } = PlatformConfig.parse(config);
    const p = MessagingAPayload.parse(payload);
    return postPlatform('messaging_a', baseUrl, '/v1/messages', secret, activityId, { to, type: 'text', text: { body: p.text } });
  },
};
