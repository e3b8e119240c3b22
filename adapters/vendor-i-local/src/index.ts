/**
 * Package root of the vendor_i_local adapter plugin: what Headcount's plugin loader imports.
 * It exports `createServerAdapter` and the adapter's `type`, `label`, `models` and
 * `agentConfigurationDoc` (spec 2.9, plugin package conventions).
 */
export { createServerAdapter, type, label, models, agentConfigurationDoc } from './server.js';
export { configSchema } from './config.js';
