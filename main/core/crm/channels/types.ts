import type { z } from 'zod';
import type { ContactForm } from '../contact.js';
import type { CrmChannel } from '../schema.js';

export interface ChannelSendInput {
  /** Validated by `configSchema` when the outbox was saved; parsed again here. */
  config: Record<string, unknown>;
  /** Validated by `payloadSchema` before any quota was reserved. */
  payload: Record<string, unknown>;
  /** The normalized recipient. */
  to: string;
  kind: string;
  /** The outbox secret's value, resolved just now; null when the outbox has no secretRef. */
  secret: string | null;
  /** Stable per message: platforms that take an idempotency key get this one. */
  activityId: string;
}

export interface ChannelResult {
  /** The platform's id for the message, when it gives one. */
  providerMessageId: string | null;
}

/**
 * A channel adapter: how one channel validates its outbox config and payload and sends. `send`
 * throws on any failure (the dispatcher records `failed` and refunds the quota).
 */
export interface ChannelAdapter {
  channel: CrmChannel;
  contact: ContactForm;
  kinds: readonly [string, ...string[]];
  /** Whether the outbox must name a secret (a password, an API token, a connection URL). */
  secret: 'required' | 'optional';
  /** For an optional secret: why this config needs one after all (null when it does not). */
  secretNeededFor?: (config: Record<string, unknown>) => string | null;
  configSchema: z.ZodType<Record<string, unknown>>;
  payloadSchema: z.ZodType<Record<string, unknown>>;
  send(input: ChannelSendInput): Promise<ChannelResult>;
}

/** A send that failed, with a stable code for the activity record. Messages never carry secret values. */
export class ChannelError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ChannelError';
  }
}
