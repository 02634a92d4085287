// The sign-in form: email and password to POST /sessions (the browser keeps the session cookie);
// the organization's name and icon from GET /server_settings; "Forgot password?" leads to the
// password reset page.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiFailure } from '../api.js';
import { serverSettings, signIn } from '../requests/public.js';
import type { SignedIn } from '../types.js';
import { OrgIcon } from './OrgIcon.js';

/** The organization's name and icon, for the sign-in card and the account pages. */
export function useOrganization(): { realm_name?: string; realm_icon?: string } {
  const [org, setOrg] = useState<{ realm_name?: string; realm_icon?: string }>({});
  useEffect(() => {
    serverSettings().then((s) => setOrg({ realm_name: s.realm_name, realm_icon: s.realm_icon }), () => undefined);
  }, []);
  return org;
}

/** The card every signed-out page shows its form in, under the organization's name and icon. */
export function Card({ children, onSubmit }: { children: ComponentChildren; onSubmit?: (e: Event) => void }) {
  const org = useOrganization();
  const inner = (
    <>
      <OrgIcon name={org.realm_name ?? ''} url={org.realm_icon} />
      <h1>{org.realm_name || 'parley'}</h1>
      {children}
    </>
  );
  return <div class="login">{onSubmit ? <form class="login-card" onSubmit={onSubmit}>{inner}</form> : <div class="login-card">{inner}</div>}</div>;
}

export function Login({ onLogin }: { onLogin: (signedIn: SignedIn) => void }) {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    setBusy(true);
    setError('');
    try {
      onLogin(await signIn(String(data.get('email')), String(data.get('password'))));
    } catch (e) {
      setError(e instanceof ApiFailure ? e.message : 'Could not sign in.');
      setBusy(false);
    }
  }

  return (
    <Card onSubmit={submit}>
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
      <p class="login-links"><a href="accounts/password/reset">Forgot password?</a></p>
    </Card>
  );
}
