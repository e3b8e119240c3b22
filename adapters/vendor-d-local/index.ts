import type { AdapterDescriptor } from '@service/adapter-utils';
import { vendorDLocalAdapter } from './descriptor.js';

export { type, label, models, agentConfigurationDoc, vendorDLocalAdapter } from './descriptor.js';

/** The package-root function of the adapter module contract (spec 2.9). */
export function createServerAdapter(): AdapterDescriptor {
  return vendorDLocalAdapter;
}
