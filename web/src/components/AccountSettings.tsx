// Profile and account: one's name, password, who sees one's email (PATCH /settings), the API key
// (shown on demand, regenerated with POST /users/me/api_key/regenerate) and signing out of
// every session (regenerating the key: every client holding the old one is signed out).
import { useState } from 'preact/hooks';
import type { Client } from '../client.js';
import { useStore } from '../store.js';
import { useOutcome } from './outcome.js';

const EMAIL_VISIBILITY: [number, string][] = [[1, 'Everyone'], [2, 'Members only'], [5, 'Moderators and administrators'], [3, 'Administrators only'], [4, 'Nobody']];

export function ProfileSettings({ client }: { client: Client }) {
  const state = useStore(client.state);
  const [nameOutcome, runName] = useOutcome();
  const [passwordOutcome, runPassword] = useOutcome();
  const saveName = (e: Event) => {
    e.preventDefault();
    runName(client.people.updateSettings({ full_name: String(new FormData(e.target as HTMLFormElement).get('full_name') ?? '').trim() }));
  };
  const savePassword = (e: Event) => {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const data = new FormData(form);
    runPassword(client.people.updateSettings({ old_password: String(data.get('old_password')), new_password: String(data.get('new_password')) }).then(() => form.reset()), 'Password changed.');
  };
  return (
    <>
      <section>
        <h2>Profile</h2>
        <form class="settings-form" onSubmit={saveName} key={state.me.full_name}>
          <label>Name <input name="full_name" defaultValue={state.me.full_name} required maxLength={60} /></label>
          <button type="submit">Save name</button>
        </form>
        <p role="status">{nameOutcome}</p>
      </section>
      <section>
        <h2>Password</h2>
        <form class="settings-form" onSubmit={savePassword}>
          <input type="text" name="username" autocomplete="username" value={state.me.delivery_email || state.me.email} hidden readOnly />
          <label>Current password <input type="password" name="old_password" autocomplete="current-password" required /></label>
          <label>New password <input type="password" name="new_password" autocomplete="new-password" required /></label>
          <button type="submit">Change password</button>
        </form>
        <p role="status">{passwordOutcome}</p>
      </section>
    </>
  );
}

export function AccountSettings({ client, onSignOut }: { client: Client; onSignOut: () => void }) {
  const state = useStore(client.state);
  const [shown, setShown] = useState(false);
  const [outcome, run] = useOutcome();
  const visibility = Number(state.settings?.email_address_visibility ?? 1);
  const regenerate = () => {
    if (confirm('Regenerate your API key? Every other client using it (the mobile app, Zulip Terminal, bots you run as yourself) is signed out.')) {
      run(client.regenerateApiKey().then(() => setShown(true)), 'A new API key is in use.');
    }
  };
  const signOutEverywhere = () => {
    if (confirm('Sign out of every session, this one included? Your API key is regenerated: every client using it must sign in again.')) {
      run(client.regenerateApiKey().then(onSignOut), 'Signed out everywhere.');
    }
  };
  return (
    <>
      <section>
        <h2>Email address</h2>
        <p>Your email: <strong>{state.me.delivery_email || state.me.email}</strong></p>
        <label>Who can see your email address{' '}
          <select name="email_address_visibility" value={visibility} onChange={(e) => run(client.people.updateSettings({ email_address_visibility: Number((e.target as HTMLSelectElement).value) }))}>
            {EMAIL_VISIBILITY.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
          </select>
        </label>
      </section>
      <section>
        <h2>API key</h2>
        <p>Clients and scripts sign in with your email and this key (<a href="https://zulip.com/api/api-keys">Zulip's API keys</a>).</p>
        {shown ? <p><code class="api-key">{client.credentials.apiKey}</code></p> : <button onClick={() => setShown(true)}>Show API key</button>}{' '}
        <button onClick={regenerate}>Regenerate API key</button>
      </section>
      <section>
        <h2>Sessions</h2>
        <p>Signing out of every session regenerates your API key, which this web client and every other client use to sign in.</p>
        <button class="danger" onClick={signOutEverywhere}>Sign out of every session</button>
      </section>
      <p role="status">{outcome}</p>
    </>
  );
}
