import { z } from 'zod';
import type { ChannelAdapter } from './types.js';
import { PlatformConfig, postPlatform } from './http-api.js';

/**
 * network_a (professional network). Requests, bearer = outbox secret:
 * - kind `message`: POST {baseUrl}/v1/messages {recipientHandle, subject?, text} → 2xx {id}
 * - kind `connection_request`: POST {baseUrl}/v1/invitations {recipientHandle, note?} → 2xx {id}
 */
export const NetworkAPayload = z.strictObject({
  subject: z.string().trim().max(200).optional(),
  /** Required for messages; the optional note of a connection request (platforms cap it near 300). */
  text: z.string().max(8000).optional(),
});

export const networkAChannel: ChannelAdapter = {
  channel: 'network_a',
  contact: 'handle',
  kinds: ['message', 'connection_request'],
  secret: 'required',
  configSchema: PlatformConfig,
  payloadSchema: NetworkAPayload.refine((p) => p.text === undefined || p.text.length > 0, { message: 'must not be empty', path: ['text'] }),
  async send({ config, payload, to, kind, secret, activityId }) {
    const { baseUrl } = PlatformConfig.parse(config);
    const p = NetworkAPayload.parse(payload);
    if (kind === 'connection_request') {
      return postPlatform('network_a', baseUrl, '/v1/invitations', secret, activityId, { recipientHandle: to, ...(p.text ? { note: p.text } : {}) });
    }
    return postPlatform('network_a', baseUrl, '/v1/messages', secret, activityId, { recipientHandle: to, ...(p.subject ? { subject: p.subject } : {}), text: p.text ?? '' });
  },
};
