import { useState } from 'preact/hooks';
import { AdminApi, ApiError } from '../api.js';

/** Asks for the admin token and checks it against the admin API before keeping it. */
export function SignIn({ notice, onSignedIn }: { notice: string | null; onSignedIn: (token: string) => void }) {
  const [token, setToken] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function signIn(event: Event) {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      await new AdminApi(token, () => undefined).signIn();
      onSignedIn(token);
    } catch (error) {
      setProblem(
        error instanceof ApiError && error.status === 401
          ? 'That is not the admin token of this server (ADMIN_TOKEN). Check it and try again.'
          : 'The admin API could not be reached.',
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <main class="sign-in">
      <h1>Pet store console</h1>
      {notice && <p role="status">{notice}</p>}
      <form onSubmit={(event) => void signIn(event)}>
        <label for="token">Admin token</label>
        <input
          id="token"
          type="password"
          autocomplete="off"
          required
          value={token}
          onInput={(event) => setToken(event.currentTarget.value)}
          {...(problem && { 'aria-invalid': true, 'aria-describedby': 'token-problem' })}
        />
        {problem && (
          <p class="error" id="token-problem" role="alert">
            {problem}
          </p>
        )}
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      <p class="hint">The token is kept in this tab only, and forgotten when you sign out or close it.</p>
    </main>
  );
}
