/**
 * `@service/adapter-utils/config`: the zod schemas of adapter configuration. A subpath of its own,
 * so a plugin bundling the utilities' main entry does not carry zod unless it asks for it.
 */
export { SecretRef, EnvValue, EnvMap, AbsolutePath, TimeoutSec, GraceMs, ConfinementConfig, CONFINEMENT_KEYS, splitConfinement } from './config-values.js';
export { cliCommandFields, cliRunFields, ModelName, AppendSystemPrompt, MaxTurns, ToolNames } from './cli-config.js';
