import type { CrmChannel } from '../schema.js';
import type { ChannelAdapter } from './types.js';
import { emailChannel } from './email.js';
import { calendarChannel } from './calendar.js';
import { networkAChannel } from './network-a.js';
import { messagingAChannel } from './messaging-a.js';
import { socialAChannel } from './social-a.js';
import { dryRunChannel } from './dry-run.js';

export type { ChannelAdapter, ChannelSendInput, ChannelResult } from './types.js';
export { ChannelError } from './types.js';

/** One adapter per channel value of spec 2.10. */
export const channelAdapters: Readonly<Record<CrmChannel, ChannelAdapter>> = {
  email: emailChannel,
  calendar: calendarChannel,
  network_a: networkAChannel,
  messaging_a: messagingAChannel,
  social_a: socialAChannel,
  'dry-run': dryRunChannel,
};
