import { describe, expect, it } from 'vitest';
import { proposedAdapter } from '../../../renderer/src/pages/onboarding/propose.js';
import { readinessSummary, type EnvironmentTestResult } from '../../../renderer/src/forms/readiness.js';

const adapter = (type: string) => ({ type, label: type, source: 'builtin' as const, status: 'loaded' as const });
const result = (installed: boolean | null, signedIn: boolean | null, ready: boolean): EnvironmentTestResult => ({
  adapterType: 'x',
  status: installed === false ? 'fail' : 'pass',
  checks: [],
  readiness: { installed, signedIn, ready },
  testedAt: new Date(0).toISOString(),
});

describe('onboarding proposes the first ready coding CLI', () => {
  const adapters = ['process', 'http', 'vendor_a_local', 'vendor_b_local', 'vendor_g_local'].map(adapter);

  it('skips process and a CLI that is installed but not signed in', () => {
    const results = [result(true, null, true), result(null, null, true), result(true, false, false), result(true, true, true), result(true, true, true)];
    expect(proposedAdapter(adapters, results)).toBe('vendor_b_local');
  });

  it('without a ready CLI proposes the first installed one (its sign-in hint shows), else none', () => {
    expect(proposedAdapter(adapters, [result(true, null, true), undefined, result(false, null, false), result(true, false, false), undefined])).toBe('vendor_b_local');
    expect(proposedAdapter(adapters, [result(true, null, true), undefined, result(false, null, false), undefined, undefined])).toBeUndefined();
  });

  it('never says "Ready" for a CLI without a login', () => {
    expect(readinessSummary(result(true, false, false))).toMatchObject({ label: 'Installed · not signed in', ready: false });
    expect(readinessSummary(result(false, null, false))).toMatchObject({ label: 'Not installed', ready: false });
    expect(readinessSummary(result(true, true, true))).toMatchObject({ label: 'Ready', ready: true });
  });
});
