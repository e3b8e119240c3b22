import type { AdapterDescriptor } from '@service/adapter-utils';
import { vendorFLocalAdapter } from './descriptor.js';

export { type, label, models, agentConfigurationDoc, vendorFLocalAdapter } from './descriptor.js';

/** The package-root function of the adapter module contract (spec 2.9). */
export function createServerAdapter(): AdapterDescriptor {
  return vendorFLocalAdapter;
}
