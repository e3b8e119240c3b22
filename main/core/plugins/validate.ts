import { z } from 'zod';
import type { ExecutionContext, ExecutionResult, ServerAdapterModule } from '@service/adapter-utils';
import type { AdapterDescriptor, AdapterModel } from '../../../adapters/types.js';
import { AbsolutePath, EnvMap, GraceMs, TimeoutSec } from '../../../adapters/config-values.js';

/** A plugin that does not meet the module contract (spec 2.9); `reasons` say what is wrong. */
export class PluginInvalidError extends Error {
  constructor(readonly reasons: string[]) {
    super(`The package is not a valid adapter plugin: ${reasons.join('; ')}`);
    this.name = 'PluginInvalidError';
  }
}

const TYPE_RE = /^[a-z][a-z0-9_]{0,63}$/;
const isFn = (v: unknown): v is (...args: unknown[]) => unknown => typeof v === 'function';

/**
 * The keys every adapter's configuration shares with the engine: the engine itself reads `env`
 * (secret references are resolved from it), `timeoutSec` and `graceMs`, so those are checked
 * whatever the plugin says. Everything else is the plugin's.
 */
const CommonConfig = z.looseObject({
  cwd: AbsolutePath.optional(),
  env: EnvMap.optional(),
  timeoutSec: TimeoutSec.optional(),
  graceMs: GraceMs.optional(),
  promptTemplate: z.string().max(65_536).optional(),
});

/**
 * A plugin describes its configuration with a JSON Schema (`configSchema` on the adapter or the
 * package root): the zod converter of the core turns it into a validator. Without one any object
 * is accepted beyond the common keys above.
 */
function configSchemaFor(jsonSchema: unknown, reasons: string[]): z.ZodType<Record<string, unknown>> {
  if (jsonSchema === undefined) return CommonConfig;
  if (!jsonSchema || typeof jsonSchema !== 'object') {
    reasons.push('configSchema must be a JSON Schema object');
    return CommonConfig;
  }
  try {
    const own = z.fromJSONSchema(jsonSchema as Parameters<typeof z.fromJSONSchema>[0]) as z.ZodType<Record<string, unknown>, Record<string, unknown>>;
    // A pipe, not an intersection: an intersection with the loose common object would let every
    // unknown key through even when the plugin's schema forbids them.
    return CommonConfig.pipe(own) as unknown as z.ZodType<Record<string, unknown>, Record<string, unknown>>;
  } catch (err) {
    reasons.push(`configSchema is not a usable JSON Schema: ${(err as Error).message}`);
    return CommonConfig;
  }
}

function checkModels(models: unknown, reasons: string[]): AdapterModel[] {
  if (!Array.isArray(models)) {
    reasons.push('models must be an array of {id, label}');
    return [];
  }
  const out: AdapterModel[] = [];
  models.forEach((m: unknown, i) => {
    const rec = m as { id?: unknown; label?: unknown } | null;
    if (!rec || typeof rec.id !== 'string' || typeof rec.label !== 'string') reasons.push(`models[${i}] must be {id: string, label: string}`);
    else out.push({ id: rec.id, label: rec.label });
  });
  return out;
}

function checkOptional(adapter: Record<string, unknown>, reasons: string[]): void {
  for (const name of ['listSkills', 'syncSkills', 'detectModel'] as const) {
    if (adapter[name] !== undefined && !isFn(adapter[name])) reasons.push(`${name} must be a function when present`);
  }
  if (adapter.label !== undefined && typeof adapter.label !== 'string') reasons.push('label must be a string when present');
  if (adapter.experimental !== undefined && typeof adapter.experimental !== 'boolean') reasons.push('experimental must be a boolean when present');
  const codec = adapter.sessionCodec as Record<string, unknown> | undefined;
  if (codec !== undefined) {
    if (!codec || typeof codec !== 'object') reasons.push('sessionCodec must be an object when present');
    else for (const fn of ['deserialize', 'serialize', 'getDisplayId']) if (!isFn(codec[fn])) reasons.push(`sessionCodec.${fn} must be a function`);
  }
}

/**
 * A plugin's `execute` is wrapped so whatever it does — throw synchronously, reject, resolve to
 * something that is not a result — the engine records a failed run and carries on.
 */
function guardedExecute(type: string, execute: (ctx: ExecutionContext) => unknown): (ctx: ExecutionContext) => Promise<ExecutionResult> {
  return async (ctx) => {
    const result = (await execute(ctx)) as ExecutionResult | null | undefined;
    if (!result || typeof result !== 'object' || !('exitCode' in result)) {
      return { exitCode: null, timedOut: false, errorCode: 'adapter_invalid_result', errorMessage: `The ${type} plugin returned no execution result` };
    }
    return result;
  };
}

/**
 * Checks a plugin's package root against the module contract and builds the descriptor the core
 * registers. `createServerAdapter` is called here; it throwing, or returning a promise that
 * rejects, is reported like any other reason.
 */
export async function descriptorFromModule(mod: Record<string, unknown>): Promise<AdapterDescriptor> {
  if (!isFn(mod.createServerAdapter)) throw new PluginInvalidError(['the package root does not export a createServerAdapter function']);
  let created: unknown;
  try {
    created = await mod.createServerAdapter();
  } catch (err) {
    throw new PluginInvalidError([`createServerAdapter() threw: ${err instanceof Error ? err.message : String(err)}`]);
  }
  if (!created || typeof created !== 'object') throw new PluginInvalidError(['createServerAdapter() did not return an object']);
  const adapter = created as Record<string, unknown> & Partial<ServerAdapterModule>;
  const reasons: string[] = [];
  const type = adapter.type;
  if (typeof type !== 'string' || !TYPE_RE.test(type)) reasons.push('type must be a snake_case string (a-z, 0-9, _; starting with a letter)');
  if (!isFn(adapter.execute)) reasons.push('execute must be a function');
  if (!isFn(adapter.testEnvironment)) reasons.push('testEnvironment must be a function');
  const models = checkModels(adapter.models, reasons);
  if (typeof adapter.agentConfigurationDoc !== 'string' || adapter.agentConfigurationDoc.trim() === '') {
    reasons.push('agentConfigurationDoc must be a non-empty markdown string');
  }
  checkOptional(adapter, reasons);
  const configSchema = configSchemaFor(adapter.configSchema ?? mod.configSchema, reasons);
  if (reasons.length > 0) throw new PluginInvalidError(reasons);

  const label = typeof adapter.label === 'string' ? adapter.label : typeof mod.label === 'string' ? mod.label : (type as string);
  const descriptor: AdapterDescriptor = {
    type: type as string,
    label,
    models,
    agentConfigurationDoc: adapter.agentConfigurationDoc as string,
    configSchema,
    execute: guardedExecute(type as string, adapter.execute!.bind(adapter)),
    // A test that throws is turned into a failed result by the test-environment service.
    testEnvironment: adapter.testEnvironment!.bind(adapter),
  };
  if (adapter.experimental === true) descriptor.experimental = true;
  if (adapter.sessionCodec) descriptor.sessionCodec = adapter.sessionCodec;
  if (adapter.listSkills) descriptor.listSkills = adapter.listSkills.bind(adapter);
  if (adapter.syncSkills) descriptor.syncSkills = adapter.syncSkills.bind(adapter);
  if (adapter.detectModel) descriptor.detectModel = adapter.detectModel.bind(adapter);
  // State paths are relative to the agent's HOME: a plugin cannot open up anything outside it.
  if (Array.isArray(adapter.stateDirs)) {
    descriptor.stateDirs = adapter.stateDirs.filter((d): d is string => typeof d === 'string' && d.length > 0 && !d.startsWith('/') && !d.split('/').includes('..'));
  }
  return descriptor;
}
