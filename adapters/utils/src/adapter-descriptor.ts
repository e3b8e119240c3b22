import type { z } from 'zod';
import type { AdapterModel, ServerAdapterModule } from './types.js';
import type { CliFormatter, UiTranscriptParser } from './transcript.js';
import { ephemeralSkills } from './skills-dir.js';

/**
 * An adapter as the core registers it: the module contract of spec 2.9 plus what the core needs
 * to create and configure agents of that type (label, and the schema `adapterConfig` must meet).
 */
export interface AdapterDescriptor extends ServerAdapterModule {
  label: string;
  /** Validates `adapterConfig` on create, patch and rollback. */
  configSchema: z.ZodType<Record<string, unknown>>;
  /** The agent runs elsewhere (http, gateway): no local process, so no sandbox check. */
  remote?: boolean;
  /** Experimental types need an explicit opt-in to be used. */
  experimental?: boolean;
  /** Dynamic model discovery; when present it replaces or extends `models`. */
  listModels?: () => Promise<AdapterModel[]>;
  /** Formats transcript lines for `headcount run watch`; absent: the generic formatter. */
  cliFormatter?: CliFormatter;
  /** The adapter's UI transcript parser (the same module the renderer loads), for server-side use and tests. */
  uiParser?: UiTranscriptParser;
}

/**
 * What a local coding-agent CLI adapter declares: its own type, docs, configuration, run and
 * environment test, sandbox state, session codec, model detection and transcript readers.
 */
export type LocalCliAdapterSpec = Omit<AdapterDescriptor, 'listSkills' | 'syncSkills' | 'remote'> & Required<Pick<AdapterDescriptor, 'stateDirs' | 'sessionCodec' | 'detectModel' | 'cliFormatter' | 'uiParser'>>;

/**
 * A local CLI adapter from its declaration. What they all share is filled in here: the product's
 * skills are provided per run (never written to the user's skill folders), and the model is
 * detected from the server's own environment, whatever the caller passes.
 */
export function localCliAdapter(spec: LocalCliAdapterSpec): AdapterDescriptor {
  const { detectModel } = spec;
  return { ...ephemeralSkills(spec.type), ...spec, detectModel: () => detectModel() };
}
