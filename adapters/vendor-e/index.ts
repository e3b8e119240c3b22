import type { AdapterDescriptor } from '@service/adapter-utils';
import { vendorEAdapter } from './descriptor.js';

export { type, label, models, agentConfigurationDoc, vendorEAdapter } from './descriptor.js';

/** The package-root function of the adapter module contract (spec 2.9). */
export function createServerAdapter(): AdapterDescriptor {
  return vendorEAdapter;
}
