// The descriptor type lives with the adapter utilities (adapters import nothing else); the core
// keeps reading it from here.
export type { AdapterDescriptor, AdapterModel } from '@service/adapter-utils';
