import { isCodingCli } from '../../app/adapter-label.js';
import type { AdapterInfo } from '../../forms/adapter-form.js';
import { readinessSummary, type EnvironmentTestResult } from '../../forms/readiness.js';

/**
 * The CEO's adapter proposed before the founder picks: the first coding CLI whose environment check
 * says ready (installed and signed in), else the first one installed, else none (the caller falls
 * back to the plain process adapter). Never `process` while a coding CLI could do the work.
 */
export function proposedAdapter(adapters: readonly AdapterInfo[], results: ReadonlyArray<EnvironmentTestResult | undefined>): string | undefined {
  const coding = adapters.map((a, i) => ({ a, r: results[i] })).filter(({ a }) => isCodingCli(a.type));
  return (coding.find(({ r }) => r && readinessSummary(r).ready) ?? coding.find(({ r }) => r?.readiness?.installed))?.a.type;
}
