import type { AdapterModel } from '@service/adapter-utils';

/** `--model` values for Qwen's own endpoints; any model of the configured OpenAI-compatible API works too. */
export const QWEN_MODELS: AdapterModel[] = [
  { id: 'qwen3-coder-plus', label: 'Qwen3 Coder Plus' },
  { id: 'qwen3-coder-flash', label: 'Qwen3 Coder Flash' },
  { id: 'qwen3-coder-480b-a35b-instruct', label: 'Qwen3 Coder 480B A35B' },
  { id: 'qwen3-max', label: 'Qwen3 Max' },
];
