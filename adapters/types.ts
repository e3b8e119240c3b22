import type { z } from 'zod';

export interface AdapterModel {
  id: string;
  label: string;
}

/**
 * What the core needs to know about an adapter type to create and configure agents: its key,
 * label, models, guidance and the schema its `adapterConfig` must satisfy.
 */
export interface AdapterDescriptor {
  type: string;
  label: string;
  models: AdapterModel[];
  /** Markdown with use-when / do-not-use-when guidance (spec 2.9). */
  agentConfigurationDoc: string;
  /** Validates `adapterConfig` on create, patch and rollback. */
  configSchema: z.ZodType<Record<string, unknown>>;
  /** Experimental types need an explicit opt-in to be used. */
  experimental?: boolean;
  /** Dynamic model discovery; when present it replaces or extends `models`. */
  listModels?: () => Promise<AdapterModel[]>;
}
