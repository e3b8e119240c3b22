import type { UsageReport } from './types.js';
import { priceUsage, usdToCents } from './prices.js';

export interface CliUsage {
  provider: string;
  model: string;
  /** Uncached input tokens, cache writes not included. */
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens?: number;
  /** Prompt-cache writes, where the CLI reports them separately (Anthropic). */
  cacheCreationInputTokens?: number;
  /** The cost the CLI itself reported, in USD; null or absent when it did not. */
  reportedCostUsd?: number | null;
}

/**
 * The run's UsageReport: the CLI's own cost when it reported one (`reported`), else the price
 * table's (`priced`), else `unpriced` with a null cost — so an unknown model never reads as $0.
 * Cache writes count as input tokens in the report (they are billed input).
 */
export function usageReport(u: CliUsage): UsageReport {
  const cacheWrites = u.cacheCreationInputTokens ?? 0;
  const base = {
    provider: u.provider,
    model: u.model,
    inputTokens: u.inputTokens + cacheWrites,
    outputTokens: u.outputTokens,
    cachedInputTokens: u.cachedInputTokens ?? 0,
  };
  if (typeof u.reportedCostUsd === 'number' && Number.isFinite(u.reportedCostUsd) && u.reportedCostUsd >= 0) {
    return { ...base, costCents: usdToCents(u.reportedCostUsd), costStatus: 'reported' };
  }
  const priced = priceUsage(u.model, u);
  return priced.status === 'priced' ? { ...base, costCents: priced.costCents, costStatus: 'priced' } : { ...base, costCents: null, costStatus: 'unpriced' };
}
