import type { AdapterDescriptor, AdapterModel } from './types.js';
import { processAdapter } from './process/descriptor.js';
import { httpAdapter } from './http/descriptor.js';
import { vendorALocalAdapter } from './vendor-a-local/descriptor.js';
import { vendorEAdapter } from './vendor-e/descriptor.js';
import { vendorFLocalAdapter } from './vendor-f-local/descriptor.js';
import { vendorHGatewayAdapter } from './vendor-h-gateway/descriptor.js';
import { vendorBLocalAdapter } from './vendor-b-local/descriptor.js';
import { vendorCLocalAdapter } from './vendor-c-local/descriptor.js';
import { vendorDLocalAdapter } from './vendor-d-local/descriptor.js';
import { vendorGLocalAdapter } from './vendor-g-local/descriptor.js';

/** Adapter types by key: built-ins first, plugins registered at start. */
export class AdapterRegistry {
  private readonly byType = new Map<string, AdapterDescriptor>();

  register(adapter: AdapterDescriptor): void {
    if (!/^[a-z][a-z0-9_]*$/.test(adapter.type)) throw new Error(`adapter type "${adapter.type}" is not snake_case`);
    if (this.byType.has(adapter.type)) throw new Error(`adapter type "${adapter.type}" is already registered`);
    this.byType.set(adapter.type, adapter);
  }

  /** Removes a type (an uninstalled plugin): its agents stay, their runs fail with `adapter_missing`. */
  unregister(type: string): boolean {
    return this.byType.delete(type);
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
  registry.register(vendorALocalAdapter);
  registry.register(vendorEAdapter);
  registry.register(vendorFLocalAdapter);
  registry.register(vendorHGatewayAdapter);
  registry.register(vendorBLocalAdapter);
  registry.register(vendorCLocalAdapter);
  registry.register(vendorDLocalAdapter);
  registry.register(vendorGLocalAdapter);
  return registry;
}
