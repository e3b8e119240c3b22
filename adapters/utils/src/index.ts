export * from './types.js';
export { runChildProcess, type RunChildProcessOptions, type ChildProcessResult } from './run-child-process.js';
export { killTree, groupAlive } from './kill-tree.js';
export { buildServiceEnv, type ServiceEnvInput } from './env.js';
export { renderTemplate, DEFAULT_PROMPT } from './template.js';
export { asString, asNumber, asBoolean } from './coerce.js';
