import { StrictMode, useCallback, useMemo, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { App, ThemedSignIn } from './app/App.js';
import { SignIn } from './app/SignIn.js';
import type { ApiError } from './api/client.js';
import { forgetCredential, resolveConnection, signOut, type Connection, type StartState } from './api/connection.js';
import './styles.css';

const root = createRoot(document.getElementById('root')!);

/**
 * Signed in or not, one place decides: a 401 from any request or "Sign out" replaces the whole
 * board by the sign-in page (with the reason), so no page is left half-broken.
 */
function Root({ initial }: { initial: StartState }) {
  const [state, setState] = useState<StartState>(initial);
  const signedOut = useCallback((message: string | null) => setState({ connection: null, message }), []);
  const connection = state.connection;
  // A burst of refused requests forgets the credential once: the connection stays marked as
  // forgotten until the sign-in page replaces it, since requests still in flight may meet their
  // 401 after the first one was handled and before the page re-rendered (each would sign out again).
  const forgotten = useRef<Connection | null>(null);
  const refused = useCallback(
    (error: ApiError) => {
      if (!connection || forgotten.current === connection) return;
      forgotten.current = connection;
      void forgetCredential(connection).then((gone) => {
        if (!gone) {
          forgotten.current = null;
          return;
        }
        if (connection.token) signedOut(`This window's board token was refused: ${error.message}. Restart Headcount to sign in again.`);
        else signedOut(error.code === 'session_expired' ? error.message : 'You are signed out (this browser no longer holds a board session). Sign in again to continue.');
      });
    },
    [connection, signedOut],
  );
  const onSignOut = useMemo(
    () => (connection && !connection.token ? () => void signOut(connection.apiBaseUrl).then(() => signedOut('You signed out.')) : null),
    [connection, signedOut],
  );
  if (!connection) {
    return (
      <ThemedSignIn>
        <SignIn error={state.message} />
      </ThemedSignIn>
    );
  }
  return <App connection={connection} onUnauthorized={refused} onSignOut={onSignOut} />;
}

resolveConnection().then(
  (state) =>
    root.render(
      <StrictMode>
        <Root initial={state} />
      </StrictMode>,
    ),
  (err: unknown) =>
    root.render(
      <ThemedSignIn>
        <SignIn error={err instanceof Error ? err.message : String(err)} />
      </ThemedSignIn>,
    ),
);
