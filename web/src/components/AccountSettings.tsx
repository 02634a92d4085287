// Profile and account: one's name, password, email address and who sees it (PATCH /settings), the
// API key (shown once the password is given again, regenerated with POST
// /users/me/api_key/regenerate) and the web sessions (GET /sessions, each endable).
import { useEffect, useState } from 'preact/hooks';
import type { Client } from '../client.js';
import { useStore } from '../store.js';
import { useOutcome } from './outcome.js';
import type { Session } from '../types.js';

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
  const [outcome, run] = useOutcome();
  const visibility = Number(state.settings?.email_address_visibility ?? 1);
  const email = state.me.delivery_email || state.me.email;
  const changeEmail = (e: Event) => {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const address = String(new FormData(form).get('email') ?? '').trim();
    run(client.people.updateSettings({ email: address }).then(() => form.reset()), `Check ${address} for a confirmation link: your address changes once you follow it.`);
  };
  return (
    <>
      <section>
        <h2>Email address</h2>
        <p>Your email: <strong>{email}</strong></p>
        <form class="settings-form" onSubmit={changeEmail}>
          <label>New email address <input name="email" type="email" autocomplete="email" required /></label>
          <button type="submit">Change email</button>
        </form>
        <label>Who can see your email address{' '}
          <select name="email_address_visibility" value={visibility} onChange={(e) => run(client.people.updateSettings({ email_address_visibility: Number((e.target as HTMLSelectElement).value) }))}>
            {EMAIL_VISIBILITY.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
          </select>
        </label>
      </section>
      <ApiKey client={client} email={email} />
      <Sessions client={client} onSignOut={onSignOut} />
      <p role="status">{outcome}</p>
    </>
  );
}

/** The API key, for clients and scripts: shown after the password is given again, or regenerated. */
function ApiKey({ client, email }: { client: Client; email: string }) {
  const [key, setKey] = useState('');
  const [outcome, run] = useOutcome();
  const show = (e: Event) => {
    e.preventDefault();
    const password = String(new FormData(e.target as HTMLFormElement).get('password') ?? '');
    run(client.accounts.apiKey(email, password).then(setKey));
  };
  const regenerate = () => {
    if (confirm('Regenerate your API key? Every client using it (the mobile app, Zulip Terminal, bots you run as yourself) must sign in again.')) {
      run(client.people.regenerateApiKey().then(setKey), 'A new API key is in use.');
    }
  };
  return (
    <section>
      <h2>API key</h2>
      <p>Clients and scripts sign in with your email and this key (<a href="https://zulip.com/api/api-keys">Zulip's API keys</a>). This web client does not use it.</p>
      {key ? (
        <p><code class="api-key">{key}</code></p>
      ) : (
        <form class="settings-form" onSubmit={show}>
          <input type="text" name="username" autocomplete="username" value={email} hidden readOnly />
          <label>Your password <input type="password" name="password" autocomplete="current-password" required /></label>
          <button type="submit">Show API key</button>
        </form>
      )}
      <button onClick={regenerate}>Regenerate API key</button>
      <p role="status">{outcome}</p>
    </section>
  );
}

/** The web sessions of this account (GET /sessions): where it is signed in, each one endable. */
function Sessions({ client, onSignOut }: { client: Client; onSignOut: () => void }) {
  const [sessions, setSessions] = useState<Session[] | undefined>(undefined);
  const [outcome, run] = useOutcome();
  const reload = () => client.accounts.sessions().then(setSessions);
  useEffect(() => void reload().catch(() => undefined), [client]);
  const end = (session: Session) => {
    if (session.current) return onSignOut();
    run(client.accounts.endSession(session.id).then(reload), 'Signed out there.');
  };
  const others = (sessions ?? []).filter((s) => !s.current);
  const endOthers = () => run(Promise.all(others.map((s) => client.accounts.endSession(s.id))).then(reload), 'Signed out everywhere else.');
  const when = (seconds: number) => new Date(seconds * 1000).toLocaleString();
  return (
    <section>
      <h2>Sessions</h2>
      {sessions && !sessions.some((s) => s.current) && <p>You are signed in here through the application this chat is part of.</p>}
      <ul class="sessions">
        {(sessions ?? []).map((s) => (
          <li key={s.id} data-session={s.id}>
            <span>{s.user_agent || 'Unknown browser'}{s.current ? ' (this browser)' : ''}</span>{' '}
            <span class="muted">signed in {when(s.created)}, last used {when(s.last_used)}</span>{' '}
            <button onClick={() => end(s)}>{s.current ? 'Sign out' : 'Sign out there'}</button>
          </li>
        ))}
      </ul>
      {others.length > 0 && <button class="danger" onClick={endOthers}>Sign out of every other session</button>}
      <p role="status">{outcome}</p>
    </section>
  );
}
