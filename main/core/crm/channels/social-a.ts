import { z } from 'zod';
import type { ChannelAdapter } from './types.js';
import { PlatformConfig, postPlatform } from './http-api.js';

/**
 * social_a (photo-sharing social network; outreach is a direct message to an account). Request,
 * bearer = outbox secret: POST {baseUrl}/v1/direct-messages {recipientHandle, text, mediaUrl?} → 2xx {id}
 */
export const SocialAPayload = z.strictObject({
  text: z.string().min(1).max(1000),
  mediaUrl: z.url({ protocol: /^https?$/ }).max(2000).optional(),
});

export const socialAChannel: ChannelAdapter = {
  channel: 'social_a',
  contact: 'handle',
  kinds: ['direct_message'],
  secret: 'required',
  configSchema: PlatformConfig,
  payloadSchema: SocialAPayload,
  async send({ config, payload, to, secret, activityId }) {
    const { baseUrl } = PlatformConfig.parse(config);
    const p = SocialAPayload.parse(payload);
    return postPlatform('social_a', baseUrl, '/v1/direct-messages', secret, activityId, {
      recipientHandle: to,
      text: p.text,
      ...(p.mediaUrl ? { mediaUrl: p.mediaUrl } : {}),
    });
  },
};
