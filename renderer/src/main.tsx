import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, ThemedSignIn } from './app/App.js';
import { SignIn } from './app/SignIn.js';
import { resolveConnection } from './api/connection.js';
import './styles.css';

const root = createRoot(document.getElementById('root')!);

resolveConnection().then(
  (connection) =>
    root.render(
      <StrictMode>
        {connection ? (
          <App connection={connection} />
        ) : (
          <ThemedSignIn>
            <SignIn />
          </ThemedSignIn>
        )}
      </StrictMode>,
    ),
  (err: unknown) =>
    root.render(
      <ThemedSignIn>
        <SignIn error={err instanceof Error ? err.message : String(err)} />
      </ThemedSignIn>,
    ),
);
