import type { AdapterModel } from '@service/adapter-utils';

/** `--model` values (`provider/id`); pi also accepts any model of a custom provider in models.json. */
export const PI_MODELS: AdapterModel[] = [
  { id: 'anthropic/claude-sonnet-4-5', label: 'Claude Sonnet 4.5 (Anthropic)' },
  { id: 'anthropic/claude-opus-4-5', label: 'Claude Opus 4.5 (Anthropic)' },
  { id: 'anthropic/claude-haiku-4-5', label: 'Claude Haiku 4.5 (Anthropic)' },
  { id: 'openai/gpt-5', label: 'GPT-5 (OpenAI)' },
  { id: 'openai/gpt-5-mini', label: 'GPT-5 mini (OpenAI)' },
  { id: 'openai/gpt-5.1-codex', label: 'GPT-5.1 Codex (OpenAI)' },
  { id: 'google/gemini-2.5-pro', label: 'Gemini 2.5 Pro (Google)' },
  { id: 'google/gemini-2.5-flash', label: 'Gemini 2.5 Flash (Google)' },
];
