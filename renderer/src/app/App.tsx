import { useMemo, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiError, createApiClient } from '../api/client.js';
import type { Connection } from '../api/connection.js';
import { ApiProvider } from './api-context.js';
import { Shell } from './Shell.js';
import { Toasts } from '../components/Toasts.js';
import { useApplyTheme } from './theme.js';
import { SessionProvider } from './session.js';

/** Client errors will not fix themselves on retry; network drops and 5xx may. */
export function shouldRetry(failureCount: number, err: unknown): boolean {
  if (err instanceof ApiError && err.status >= 400 && err.status < 500) return false;
  return failureCount < 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // Live events invalidate what changed, so cached data can be trusted for a while.
      queries: { staleTime: 30_000, retry: shouldRetry, refetchOnWindowFocus: true },
      mutations: { retry: false },
    },
  });
}

export interface AppProps {
  connection: Connection;
  /** Any request answered 401: the credential is gone; the caller shows the sign-in page. */
  onUnauthorized?: (error: ApiError) => void;
  /** Browser sessions only; null in the desktop window. */
  onSignOut?: (() => void) | null;
}

export function App({ connection, onUnauthorized, onSignOut = null }: AppProps) {
  useApplyTheme();
  const client = useMemo(() => createApiClient(connection, undefined, onUnauthorized), [connection, onUnauthorized]);
  const queryClient = useMemo(() => createQueryClient(), []);
  const session = useMemo(() => ({ signOut: onSignOut }), [onSignOut]);
  return (
    <QueryClientProvider client={queryClient}>
      <ApiProvider client={client}>
        <SessionProvider session={session}>
          <Shell />
          <Toasts />
        </SessionProvider>
      </ApiProvider>
    </QueryClientProvider>
  );
}

export function ThemedSignIn({ children }: { children: ReactNode }) {
  useApplyTheme();
  return <>{children}</>;
}
