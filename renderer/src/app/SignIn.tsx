import { useState } from 'react';
import { signIn } from '../api/connection.js';
import { Button } from '../components/Button.js';
import { Input } from '../components/Field.js';

/**
 * Shown in a browser that is not signed in: the way in is the one-time link printed by `npm start`
 * (or `serve`); pasting the board token also works. Either sets the session cookie for every tab.
 */
export function SignIn({ error }: { error?: string | null }) {
  const [token, setToken] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const shown = failure ?? error;
  return (
    <div className="center-screen">
      <div className="center-card stack">
        <div className="brand" style={{ padding: 0 }}>
          <span className="brand-mark" aria-hidden="true">H</span>
          Headcount
        </div>
        <h1>Sign in to the board</h1>
        {shown ? <div className="error-box" role="alert">{shown}</div> : null}
        <p className="muted" style={{ margin: 0 }}>
          Open the link that <code>npm start</code> printed on its <code>board:</code> line. Each link works once and signs this
          browser in, in every tab, until you sign out; restart the server for a new link.
        </p>
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            if (!token.trim() || busy) return;
            setBusy(true);
            signIn(window.location.origin, { token: token.trim() }).then(
              () => {
                window.location.hash = '#/';
                window.location.reload();
              },
              (err: unknown) => {
                setBusy(false);
                setFailure(err instanceof Error ? err.message : String(err));
              },
            );
          }}
        >
          <Input label="Or paste the board token" type="password" autoComplete="off" value={token} onChange={(e) => setToken(e.target.value)} hint="From $SERVICE_HOME/board-token" />
          <div>
            <Button type="submit" variant="primary" disabled={!token.trim() || busy}>Sign in</Button>
          </div>
        </form>
      </div>
    </div>
  );
}
