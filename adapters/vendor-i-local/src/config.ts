import os from 'node:os';
import { asBoolean, asNumber, asString } from '@service/adapter-utils';

/** Amp picks its models by mode; the product's model picker selects the mode. */
export const MODES = ['smart', 'rush', 'deep', 'free'] as const;

/**
 * `adapterConfig` of a vendor_i_local agent as a JSON Schema (the host validates agents with it;
 * unknown keys are refused so a typo does not silently do nothing). `env` values may be secret
 * references: the host checks those.
 */
export const configSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    command: { type: 'string', minLength: 1, maxLength: 4096, description: 'The Amp CLI: a name on PATH or a path. Default "amp".' },
    args: { type: 'array', items: { type: 'string', maxLength: 32768 }, maxItems: 256, description: 'Extra arguments, placed before --execute.' },
    cwd: { type: 'string', minLength: 1, maxLength: 4096, description: 'Absolute working directory; default the OS temp directory.' },
    env: { type: 'object', description: 'Environment variables (values or secret references).' },
    model: { type: 'string', enum: [...MODES], description: 'Amp mode (--mode): smart, rush, deep or free.' },
    priceAsModel: { type: 'string', maxLength: 200, description: 'Model id of the price table to price usage with when Amp does not name its model.' },
    dangerouslyAllowAll: { type: 'boolean', description: 'Pass --dangerously-allow-all (default true: a heartbeat has nobody to approve tool calls).' },
    timeoutSec: { type: 'integer', minimum: 1, maximum: 86400 },
    graceMs: { type: 'integer', minimum: 0, maximum: 600000 },
    idleTimeoutSec: { type: 'integer', minimum: 1, maximum: 86400 },
    promptTemplate: { type: 'string', maxLength: 65536 },
    pty: { type: 'boolean', description: 'Run under a pseudo-terminal (default true; pipes when node-pty is not available).' },
    helloProbe: { type: 'boolean', description: 'testEnvironment also runs a one-line prompt through Amp.' },
  },
} as const;

export interface AmpConfig {
  command: string;
  args: string[];
  cwd: string;
  mode: string | null;
  priceAsModel: string | null;
  allowAll: boolean;
  timeoutSec: number;
  graceMs: number;
  idleTimeoutSec: number | null;
  pty: boolean;
  helloProbe: boolean;
}

/** Reads a stored configuration leniently (it was validated when saved; defaults fill the rest). */
export function readConfig(config: Record<string, unknown>): AmpConfig {
  const args = Array.isArray(config.args) ? config.args.filter((a): a is string => typeof a === 'string') : [];
  const mode = asString(config.model);
  const idle = asNumber(config.idleTimeoutSec, 0);
  return {
    command: asString(config.command) || 'amp',
    args,
    cwd: asString(config.cwd) || os.tmpdir(),
    mode: mode || null,
    priceAsModel: asString(config.priceAsModel) || null,
    allowAll: asBoolean(config.dangerouslyAllowAll, true),
    timeoutSec: asNumber(config.timeoutSec, 300),
    graceMs: asNumber(config.graceMs, 10_000),
    idleTimeoutSec: idle > 0 ? idle : null,
    pty: asBoolean(config.pty, true),
    helloProbe: asBoolean(config.helloProbe, false),
  };
}

/** A prompt is one argument of `--execute`; one starting with "-" would be read as an option. */
const safePrompt = (prompt: string) => (prompt.startsWith('-') ? ` ${prompt}` : prompt);

/** `amp [threads continue <id>] [args] [--mode m] [--dangerously-allow-all] --execute <prompt> --stream-json`. */
export function ampArgs(cfg: AmpConfig, prompt: string, threadId: string | null): string[] {
  return [
    ...(threadId ? ['threads', 'continue', threadId] : []),
    ...cfg.args,
    ...(cfg.mode ? ['--mode', cfg.mode] : []),
    ...(cfg.allowAll ? ['--dangerously-allow-all'] : []),
    '--execute',
    safePrompt(prompt),
    '--stream-json',
  ];
}
