import { useState } from 'react';
import { TOKEN_STORAGE_KEY } from '../api/connection.js';
import { Button } from '../components/Button.js';
import { Input } from '../components/Field.js';

/**
 * Shown in a browser tab that has no board token: the way in is the one-time link printed by
 * `npm run serve`; pasting the token itself also works (it never leaves this tab's session).
 */
export function SignIn({ error }: { error?: string | null }) {
  const [token, setToken] = useState('');
  return (
    <div className="center-screen">
      <div className="center-card stack">
        <div className="brand" style={{ padding: 0 }}>
          <span className="brand-mark" aria-hidden="true">H</span>
          Headcount
        </div>
        <h1>Sign in to the board</h1>
        {error ? <div className="error-box" role="alert">{error}</div> : null}
        <p className="muted" style={{ margin: 0 }}>
          Open the one-time link that <code>npm run serve</code> printed after its <code>listening on</code> line. Each link works once;
          restart the server for a new one.
        </p>
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            if (!token.trim()) return;
            window.sessionStorage.setItem(TOKEN_STORAGE_KEY, token.trim());
            window.location.hash = '#/';
            window.location.reload();
          }}
        >
          <Input label="Or paste the board token" type="password" autoComplete="off" value={token} onChange={(e) => setToken(e.target.value)} hint="From $SERVICE_HOME/board-token" />
          <div>
            <Button type="submit" variant="primary" disabled={!token.trim()}>Sign in</Button>
          </div>
        </form>
      </div>
    </div>
  );
}
