import type { AdapterModel } from '@service/adapter-utils';

/** `--model` values the Cursor agent CLI accepts (its `--list-models` varies with the plan). */
export const CURSOR_MODELS: AdapterModel[] = [
  { id: 'auto', label: 'Auto (Cursor picks)' },
  { id: 'composer-1', label: 'Composer 1' },
  { id: 'sonnet-4.5', label: 'Claude Sonnet 4.5' },
  { id: 'sonnet-4.5-thinking', label: 'Claude Sonnet 4.5 (thinking)' },
  { id: 'opus-4.1', label: 'Claude Opus 4.1' },
  { id: 'gpt-5', label: 'GPT-5' },
  { id: 'gpt-5-codex', label: 'GPT-5 Codex' },
  { id: 'grok', label: 'Grok' },
];

/**
 * Cursor reports tokens but no cost: its model names mapped to the price table's ids. Auto,
 * Composer and models Cursor bills its own way stay unpriced.
 */
const PRICE_IDS: [RegExp, string][] = [
  [/^(?:claude[- ]?)?(?:sonnet[- ]4\.5|4\.5[- ]sonnet)/i, 'claude-sonnet-4-5'],
  [/^(?:claude[- ]?)?(?:opus[- ]4\.1|4\.1[- ]opus)/i, 'claude-opus-4-1'],
  [/^(?:claude[- ]?)?(?:sonnet[- ]4|4[- ]sonnet)\b/i, 'claude-sonnet-4'],
  [/^gpt-5[- ]codex/i, 'gpt-5-codex'],
  [/^gpt-5\b/i, 'gpt-5'],
];

export function priceModelId(model: string): string {
  const name = model.trim();
  return PRICE_IDS.find(([re]) => re.test(name))?.[1] ?? name;
}
