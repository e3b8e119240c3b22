import type { CoreContext } from '../context.js';
import type { Actor } from '../kernel/actor.js';
import { assertBoard } from '../kernel/access.js';
import { conflict, notFound, ServiceError } from '../kernel/errors.js';
import type { AdapterListEntry, InstallAdapterInput, InstalledAdapter, PluginEntry, UiParserResponse } from './contract.js';
import { pluginPaths, PluginStore } from './store.js';
import { errorText, loadPackage, type LoadedPackage } from './loader.js';
import { PluginInvalidError } from './validate.js';
import { builtinUiParser, isCompatible, pluginUiParser, uiParserResponse } from './ui-parser.js';
import { installFromNpm, installFromPath, removeFromDisk, type PluginInstallOptions } from './installer.js';
import { ensureInstallDir } from './install-dir.js';

export type { PluginInstallOptions } from './installer.js';

/** A plugin of the registry file, loaded or not. */
interface PluginState {
  entry: PluginEntry;
  loaded?: LoadedPackage;
  /** Why it is not usable; the server keeps serving without it. */
  error?: string;
}

const invalid = (reasons: string[]) =>
  new ServiceError(422, 'invalid_adapter_plugin', `The package is not a valid adapter plugin: ${reasons.join('; ')}`, { reasons });

/**
 * Adapter plugins (spec 2.9 and 4.3): the registry file, the install directory, and what is
 * registered in the adapter registry. Built-in types are whatever the registry held before any
 * plugin was loaded.
 */
export class PluginService {
  private readonly paths;
  private readonly store;
  private readonly builtins: Set<string>;
  private readonly plugins = new Map<string, PluginState>();
  /** Set when the registry file cannot be read: installs are refused rather than overwrite it. */
  private registryError: string | null = null;
  /** Installs and uninstalls run one at a time: npm and the registry file are not shared safely. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly ctx: CoreContext,
    private readonly options: PluginInstallOptions = {},
  ) {
    this.paths = pluginPaths(ctx.paths.home);
    this.store = new PluginStore(this.paths.registryFile);
    this.builtins = new Set(ctx.adapters.list().map((a) => a.type));
  }

  /**
   * Loads every plugin of the registry file at start. Nothing a plugin does (a missing package, an
   * import that throws, a createServerAdapter that throws, a bad module) stops the server: the
   * plugin is listed with its error instead.
   */
  async loadAll(): Promise<void> {
    let entries: PluginEntry[];
    try {
      entries = this.store.read();
    } catch (err) {
      this.registryError = errorText(err);
      this.ctx.logger.error('adapter plugins not loaded: the registry file is unreadable', { error: this.registryError });
      return;
    }
    for (const entry of entries) {
      const state: PluginState = { entry };
      try {
        if (this.plugins.has(entry.type)) throw new Error(`type "${entry.type}" is listed twice in adapter-plugins.json`);
        const loaded = await loadPackage(this.paths.installDir, entry.packageName, this.options.loadTimeoutMs);
        if (loaded.descriptor.type !== entry.type) {
          throw new Error(`the package now declares type "${loaded.descriptor.type}", installed as "${entry.type}": uninstall and install it again`);
        }
        if (this.ctx.adapters.get(entry.type)) throw new Error(`type "${entry.type}" is already taken by ${this.builtins.has(entry.type) ? 'a built-in adapter' : 'another plugin'}`);
        this.ctx.adapters.register(loaded.descriptor);
        state.loaded = loaded;
      } catch (err) {
        state.error = err instanceof PluginInvalidError ? err.reasons.join('; ') : errorText(err);
        this.ctx.logger.warn('adapter plugin failed to load', { packageName: entry.packageName, type: entry.type, error: state.error });
      }
      // A duplicate line keeps the first; the second is only logged.
      if (!this.plugins.has(entry.type)) this.plugins.set(entry.type, state);
    }
  }

  list(): AdapterListEntry[] {
    const out: AdapterListEntry[] = [];
    for (const a of this.ctx.adapters.list()) {
      if (!this.builtins.has(a.type)) continue;
      out.push({ type: a.type, label: a.label, source: 'builtin', status: 'loaded', models: a.models, ...(a.experimental ? { experimental: true } : {}) });
    }
    for (const { entry, loaded, error } of this.plugins.values()) {
      const d = loaded?.descriptor;
      out.push({
        type: entry.type,
        label: d?.label ?? entry.type,
        source: 'plugin',
        packageName: entry.packageName,
        ...(entry.localPath ? { localPath: entry.localPath } : {}),
        installedAt: entry.installedAt,
        ...(d?.experimental ? { experimental: true } : {}),
        status: d ? 'loaded' : 'error',
        ...(error ? { error } : {}),
        ...(d ? { models: d.models } : {}),
      });
    }
    return out;
  }

  install(actor: Actor, input: InstallAdapterInput): Promise<InstalledAdapter> {
    assertBoard(actor, 'install adapter plugins');
    return this.serial(() => this.installNow(input));
  }

  uninstall(actor: Actor, type: string): Promise<{ type: string; packageName: string; uninstalled: true }> {
    assertBoard(actor, 'uninstall adapter plugins');
    return this.serial(async () => {
      // A plugin entry comes first: one that clashes with a newer built-in must still be removable.
      const state = this.plugins.get(type);
      if (!state && this.builtins.has(type)) throw conflict('builtin_adapter', `"${type}" is a built-in adapter; only plugins can be uninstalled`);
      if (!state) throw notFound('Adapter plugin');
      // Unregistered first: from here on runs of this type fail with adapter_missing.
      if (state.loaded) this.ctx.adapters.unregister(type);
      this.plugins.delete(type);
      this.store.write(this.store.read().filter((e) => e.type !== type));
      await removeFromDisk(this.paths.installDir, state.entry, this.options, this.ctx.logger);
      this.ctx.logger.info('adapter plugin uninstalled', { type, packageName: state.entry.packageName });
      return { type, packageName: state.entry.packageName, uninstalled: true as const };
    });
  }

  uiParser(type: string): UiParserResponse {
    const state = this.plugins.get(type);
    if (state?.loaded) return uiParserResponse(type, pluginUiParser(state.loaded.pkgDir, state.loaded.pkg));
    if (this.builtins.has(type) && this.ctx.adapters.get(type)) return uiParserResponse(type, builtinUiParser(type));
    if (state) return uiParserResponse(type, { file: null, contractVersion: null });
    throw notFound('Adapter');
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => {});
    return run;
  }

  private async installNow(input: InstallAdapterInput): Promise<InstalledAdapter> {
    if (this.registryError) throw conflict('plugin_registry_unreadable', `adapter-plugins.json cannot be read, fix or remove it first: ${this.registryError}`);
    const entries = this.store.read();
    ensureInstallDir(this.paths.installDir);
    const installedNames = new Set(entries.map((e) => e.packageName));
    const placed = input.localPath !== undefined
      ? await installFromPath(this.paths.installDir, input.localPath, installedNames)
      : await installFromNpm(this.paths.installDir, input.packageName!, installedNames, this.options);
    const entry: PluginEntry = { packageName: placed.packageName, localPath: placed.localPath, type: '', installedAt: this.ctx.clock.now().toISOString() };
    let loaded: LoadedPackage;
    try {
      loaded = await loadPackage(this.paths.installDir, placed.packageName, this.options.loadTimeoutMs);
      const type = loaded.descriptor.type;
      if (this.ctx.adapters.get(type) || this.plugins.has(type)) {
        throw conflict('adapter_type_taken', `Adapter type "${type}" is already ${this.builtins.has(type) ? 'a built-in adapter' : 'installed'}`, { type });
      }
      entry.type = type;
      this.ctx.adapters.register(loaded.descriptor);
    } catch (err) {
      // Nothing of a refused package stays registered or on disk.
      await removeFromDisk(this.paths.installDir, entry, this.options, this.ctx.logger);
      if (err instanceof PluginInvalidError) throw invalid(err.reasons);
      throw err;
    }
    this.store.write([...entries, entry]);
    this.plugins.set(entry.type, { entry, loaded });
    this.ctx.logger.info('adapter plugin installed', { type: entry.type, packageName: entry.packageName, localPath: entry.localPath });
    const d = loaded.descriptor;
    const parser = pluginUiParser(loaded.pkgDir, loaded.pkg);
    return {
      type: d.type,
      label: d.label,
      source: 'plugin',
      packageName: entry.packageName,
      localPath: entry.localPath,
      installedAt: entry.installedAt,
      ...(d.experimental ? { experimental: true } : {}),
      models: d.models,
      agentConfigurationDoc: d.agentConfigurationDoc,
      uiParser: { contractVersion: parser.contractVersion, compatible: parser.file !== null && isCompatible(parser.contractVersion) },
    };
  }
}
