import type { AdapterDescriptor, AdapterModel } from './types.js';
import { processAdapter } from './process/descriptor.js';
import { httpAdapter } from './http/descriptor.js';

/** Adapter types by key: built-ins first, plugins registered at start. */
export class AdapterRegistry {
  private readonly byType = new Map<string, AdapterDescriptor>();

  register(adapter: AdapterDescriptor): void {
    if (!/^[a-z][a-z0-9_]*$/.test(adapter.type)) throw new Error(`adapter type "${adapter.type}" is not snake_case`);
    if (this.byType.has(adapter.type)) throw new Error(`adapter type "${adapter.type}" is already registered`);
    this.byType.set(adapter.type, adapter);
  }

  get(type: string): AdapterDescriptor | undefined {
    return this.byType.get(type);
  }

  list(): AdapterDescriptor[] {
    return [...this.byType.values()];
  }

  /** Discovered models when the adapter can discover them, else its static list. */
  async models(type: string): Promise<AdapterModel[] | undefined> {
    const adapter = this.byType.get(type);
    if (!adapter) return undefined;
    return adapter.listModels ? adapter.listModels() : adapter.models;
  }
}

export function createBuiltinRegistry(): AdapterRegistry {
  const registry = new AdapterRegistry();
  registry.register(processAdapter);
  registry.register(httpAdapter);
  return registry;
}
