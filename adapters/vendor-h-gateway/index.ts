import type { AdapterDescriptor } from '@service/adapter-utils';
import { vendorHGatewayAdapter } from './descriptor.js';

export { type, label, models, agentConfigurationDoc, vendorHGatewayAdapter } from './descriptor.js';

/** The package-root function of the adapter module contract (spec 2.9). */
export function createServerAdapter(): AdapterDescriptor {
  return vendorHGatewayAdapter;
}
