// The sign-in form: email and password to POST /fetch_api_key; the organization's name and icon
// from GET /server_settings.
import { useEffect, useState } from 'preact/hooks';
import { ApiFailure, type Credentials } from '../api.js';
import { fetchApiKey, serverSettings } from '../requests/public.js';
import { OrgIcon } from './OrgIcon.js';

export function Login({ onLogin }: { onLogin: (c: Credentials) => void }) {
  const [org, setOrg] = useState<{ realm_name?: string; realm_icon?: string }>({});
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    serverSettings().then((s) => setOrg({ realm_name: s.realm_name, realm_icon: s.realm_icon }), () => undefined);
  }, []);

  async function submit(event: Event) {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    setBusy(true);
    setError('');
    try {
      const answer = await fetchApiKey(String(data.get('email')), String(data.get('password')));
      onLogin({ email: answer.email, apiKey: answer.api_key });
    } catch (e) {
      setError(e instanceof ApiFailure ? e.message : 'Could not sign in.');
      setBusy(false);
    }
  }

  return (
    <div class="login">
      <form class="login-card" onSubmit={submit}>
        <OrgIcon name={org.realm_name ?? ''} url={org.realm_icon} />
        <h1>{org.realm_name || 'parley'}</h1>
        <label>
          Email
          <input name="email" type="email" autocomplete="username" required autofocus />
        </label>
        <label>
          Password
          <input name="password" type="password" autocomplete="current-password" required />
        </label>
        {error && <p class="error" role="alert">{error}</p>}
        <button type="submit" disabled={busy}>{busy ? 'Signing in…' : 'Sign in'}</button>
      </form>
    </div>
  );
}
