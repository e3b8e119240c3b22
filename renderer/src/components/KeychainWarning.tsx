import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../app/api-context.js';
import { keys } from '../api/keys.js';
import type { SystemStatus } from '../api/types.js';
import { Button } from './Button.js';
import './keychain-warning.css';

type KeyProvider = SystemStatus['keyProvider'];

/** The risk of each weaker-than-keychain store, in one sentence (DESIGN.md: said loudly). */
export function keyRisk(p: KeyProvider): string {
  if (p.kind === 'file') return 'The master key of your secrets is kept in a file beside the database instead of the OS keychain, so anyone who can read that file and the database can read every secret.';
  if (p.kind === 'memory') return 'The master key of your secrets is held in memory only, so every secret is lost when Headcount restarts.';
  return p.warning ?? '';
}

/**
 * The dismissal is remembered per store: the description names the key file, which lives in the
 * data home, so another data home (or a change of store) warns again.
 */
export const dismissalKey = (p: KeyProvider) => `headcount.keychainWarningDismissed:${p.kind}:${p.description}`;

function readDismissed(key: string): boolean {
  try {
    return localStorage.getItem(key) === '1';
  } catch {
    return false;
  }
}

/** Banner shown while the master key is not in the OS keychain, until the founder dismisses it. */
export function KeychainWarning() {
  const api = useApi();
  const system = useQuery({ queryKey: keys.system(), queryFn: () => api.get<SystemStatus>('/api/system/status'), staleTime: Infinity });
  const [dismissedNow, setDismissedNow] = useState<string | null>(null);
  const provider = system.data?.keyProvider;
  if (!provider?.warning) return null;
  const key = dismissalKey(provider);
  if (dismissedNow === key || readDismissed(key)) return null;
  const dismiss = () => {
    try {
      localStorage.setItem(key, '1');
    } catch {
      // Storage refused (private window): dismissed for this session only.
    }
    setDismissedNow(key);
  };
  return (
    <div className="banner banner-top keychain-warning" role="status" aria-label="Master key warning">
      <span title={provider.description}>
        <strong>Secrets:</strong> {keyRisk(provider)}
      </span>
      <Button variant="ghost" size="sm" onClick={dismiss}>Dismiss</Button>
    </div>
  );
}
