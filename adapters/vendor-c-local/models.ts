import type { AdapterModel } from '@service/adapter-utils';

/** `--model` values of the Gemini API. */
export const GEMINI_MODELS: AdapterModel[] = [
  { id: 'gemini-2.5-pro', label: 'Gemini 2.5 Pro' },
  { id: 'gemini-2.5-flash', label: 'Gemini 2.5 Flash' },
  { id: 'gemini-2.5-flash-lite', label: 'Gemini 2.5 Flash-Lite' },
];
