export interface EnvironmentCheck {
  level: 'info' | 'warn' | 'error';
  message: string;
  hint?: string;
  code: string;
}
export interface EnvironmentTestResult {
  adapterType: string;
  status: 'pass' | 'fail';
  checks: EnvironmentCheck[];
  /** Absent from an older server: then only `status` is known. */
  readiness?: { installed: boolean | null; signedIn: boolean | null; ready: boolean };
  testedAt: string;
}

/**
 * What the board says about an environment: "Ready" only when the CLI is installed, signed in and
 * error-free. A CLI without a login passes the spec's checks yet cannot work, so it is never "Ready".
 */
export function readinessSummary(r: EnvironmentTestResult): { label: string; tone: 'green' | 'amber' | 'red' | 'neutral'; ready: boolean } {
  const x = r.readiness ?? { installed: null, signedIn: null, ready: r.status === 'pass' };
  if (x.installed === false) return { label: 'Not installed', tone: 'neutral', ready: false };
  if (x.signedIn === false) return { label: 'Installed · not signed in', tone: 'amber', ready: false };
  if (x.ready) return { label: 'Ready', tone: 'green', ready: true };
  return { label: 'Problems found', tone: 'red', ready: false };
}
