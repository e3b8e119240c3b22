// The configuration value types live with the adapter utilities (adapters import nothing else);
// the core keeps reading them from here.
export { SecretRef, EnvValue, EnvMap, AbsolutePath, TimeoutSec, GraceMs, ConfinementConfig, CONFINEMENT_KEYS, splitConfinement } from '@service/adapter-utils/config';
