/**
 * The model price table: USD per million tokens, used when a CLI reports usage but no cost.
 *
 * Source: the vendors' public API pricing pages — anthropic.com/pricing (Claude API),
 * openai.com/api/pricing, ai.google.dev/gemini-api/docs/pricing (paid tier, prompts up to 200k
 * tokens), alibabacloud.com Model Studio pricing (international, first tier) — figures as
 * published in October 2025. They are not fetched live: check them before relying on a total
 * for billing. A model missing here is `unpriced` — its usage is recorded, its cost is unknown,
 * never counted as $0.
 */
export interface ModelPrice {
  input: number;
  output: number;
  /** Prompt-cache reads; absent means they cost the input price. */
  cachedInput?: number;
  /** Prompt-cache writes (Anthropic); absent means the input price. */
  cacheWrite?: number;
}

const CLAUDE_OPUS_4 = { input: 15, output: 75, cachedInput: 1.5, cacheWrite: 18.75 };
const CLAUDE_SONNET = { input: 3, output: 15, cachedInput: 0.3, cacheWrite: 3.75 };
const GPT_5 = { input: 1.25, output: 10, cachedInput: 0.125 };

/** Keys are model ids without provider prefix or date suffix; lookup takes the longest prefix. */
export const MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  'claude-opus-4-5': { input: 5, output: 25, cachedInput: 0.5, cacheWrite: 6.25 },
  'claude-opus-4-1': CLAUDE_OPUS_4,
  'claude-opus-4': CLAUDE_OPUS_4,
  'claude-sonnet-4-5': CLAUDE_SONNET,
  'claude-sonnet-4': CLAUDE_SONNET,
  'claude-3-7-sonnet': CLAUDE_SONNET,
  'claude-haiku-4-5': { input: 1, output: 5, cachedInput: 0.1, cacheWrite: 1.25 },
  'claude-3-5-haiku': { input: 0.8, output: 4, cachedInput: 0.08, cacheWrite: 1 },
  'gpt-5-codex': GPT_5,
  'gpt-5.1-codex': GPT_5,
  'gpt-5.1': GPT_5,
  'gpt-5': GPT_5,
  'gpt-5-mini': { input: 0.25, output: 2, cachedInput: 0.025 },
  'gpt-5-nano': { input: 0.05, output: 0.4, cachedInput: 0.005 },
  'gpt-4.1': { input: 2, output: 8, cachedInput: 0.5 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6, cachedInput: 0.1 },
  o3: { input: 2, output: 8, cachedInput: 0.5 },
  'o4-mini': { input: 1.1, output: 4.4, cachedInput: 0.275 },
  'gemini-2.5-pro': { input: 1.25, output: 10, cachedInput: 0.31 },
  'gemini-2.5-flash': { input: 0.3, output: 2.5, cachedInput: 0.075 },
  'gemini-2.5-flash-lite': { input: 0.1, output: 0.4, cachedInput: 0.025 },
  'qwen3-coder-plus': { input: 1, output: 5 },
  'qwen3-coder-flash': { input: 0.3, output: 1.5 },
  'qwen3-max': { input: 1.2, output: 6 },
};

/** Short names the CLIs accept for a model family. */
const ALIASES: Record<string, string> = {
  opus: 'claude-opus-4-1',
  sonnet: 'claude-sonnet-4-5',
  haiku: 'claude-haiku-4-5',
  // Editor-agent spellings of the same models.
  'sonnet-4.5': 'claude-sonnet-4-5',
  'sonnet-4.5-thinking': 'claude-sonnet-4-5',
  'opus-4.1': 'claude-opus-4-1',
};

/** `anthropic/claude-sonnet-4-5-20250929` → `claude-sonnet-4-5-20250929`, lower case. */
const bareModel = (model: string) =>
  (model.trim().toLowerCase().split('/').pop() ?? '')
    // Context-window variants (`claude-opus-4-1[1m]`) bill like the model itself.
    .replace(/\[[^\]]*\]$/, '');

/** The table entry for a model id (provider prefix, date suffix and aliases handled), or null. */
export function modelPrice(model: string | null | undefined): ModelPrice | null {
  if (!model) return null;
  const bare = bareModel(model);
  const id = ALIASES[bare] ?? bare;
  let best: string | null = null;
  for (const key of Object.keys(MODEL_PRICES)) {
    // A key matches the whole id or a prefix followed by a separator (`gpt-5` must not match `gpt-50`).
    if ((id === key || id.startsWith(`${key}-`) || id.startsWith(`${key}@`)) && (!best || key.length > best.length)) best = key;
  }
  return best ? MODEL_PRICES[best]! : null;
}

export interface TokenUsage {
  /** Input tokens that were not cache reads (cache writes counted separately when known). */
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens?: number;
  cacheCreationInputTokens?: number;
}

export type PricedUsage = { status: 'priced'; costUsd: number; costCents: number } | { status: 'unpriced' };

/** The cost of a usage from the table, or `unpriced` when the model is not in it. */
export function priceUsage(model: string | null | undefined, usage: TokenUsage): PricedUsage {
  const price = modelPrice(model);
  if (!price) return { status: 'unpriced' };
  const perToken = (perMillion: number) => perMillion / 1_000_000;
  const costUsd =
    usage.inputTokens * perToken(price.input) +
    usage.outputTokens * perToken(price.output) +
    (usage.cachedInputTokens ?? 0) * perToken(price.cachedInput ?? price.input) +
    (usage.cacheCreationInputTokens ?? 0) * perToken(price.cacheWrite ?? price.input);
  return { status: 'priced', costUsd, costCents: usdToCents(costUsd) };
}

/** Dollars to cents, kept to a millionth of a cent (what the cost ledger stores). */
export const usdToCents = (usd: number): number => Math.round(usd * 100 * 1_000_000) / 1_000_000;
