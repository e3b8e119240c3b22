import { z } from 'zod';
import type { ChannelAdapter } from './types.js';

/**
 * The dry-run channel: any recipient form, any payload object, nothing leaves the machine. The
 * dispatcher short-circuits before this adapter (status `sent_dryrun`), after allowlist and rules.
 */
export const dryRunChannel: ChannelAdapter = {
  channel: 'dry-run',
  contact: 'any',
  kinds: ['message', 'invite', 'connection_request', 'direct_message'],
  // Allowed so an outbox can be rehearsed with the secret its real channel will use; never read.
  secret: 'optional',
  configSchema: z.record(z.string(), z.unknown()),
  payloadSchema: z.record(z.string(), z.unknown()),
  send: () => Promise.resolve({ providerMessageId: null }),
};
