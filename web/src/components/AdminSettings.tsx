// Administrators' settings: the organization's linkifiers (/realm/filters) and other users'
// statuses (POST /users/{user_id}/status).
import type { Client } from '../client.js';
import { useStore } from '../store.js';
import { useOutcome } from './outcome.js';

export function LinkifierSettings({ client }: { client: Client }) {
  const state = useStore(client.state);
  const [outcome, run] = useOutcome();
  const add = (e: Event) => {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const data = new FormData(form);
    run(client.api.post('realm/filters', { pattern: String(data.get('pattern')), url_template: String(data.get('template')) }).then(() => form.reset()), 'Added.');
  };
  return (
    <section>
      <h2>Linkifiers</h2>
      <table class="linkifiers">
        <thead><tr><th>Pattern</th><th>URL template</th><th /></tr></thead>
        <tbody>
          {state.linkifiers.map((l) => (
            <tr key={l.id}>
              <td><code>{l.pattern}</code></td>
              <td><code>{l.url_template}</code></td>
              <td><button onClick={() => run(client.api.delete(`realm/filters/${l.id}`), 'Removed.')}>Remove</button></td>
            </tr>
          ))}
        </tbody>
      </table>
      <form class="settings-form" onSubmit={add}>
        <label>Pattern <input name="pattern" placeholder="#(?P<id>[0-9]+)" required /></label>
        <label>URL template <input name="template" placeholder="https://example.com/issues/{id}" required /></label>
        <button type="submit">Add linkifier</button>
      </form>
      <p role="status">{outcome}</p>
    </section>
  );
}

export function UserStatusAdmin({ client }: { client: Client }) {
  const state = useStore(client.state);
  const [outcome, run] = useOutcome();
  const submit = (e: Event) => {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    run(client.api.post(`users/${String(data.get('user'))}/status`, { status_text: String(data.get('text') ?? ''), emoji_name: String(data.get('emoji') ?? '') }));
  };
  const users = [...state.users.values()].filter((u) => u.user_id !== state.me.user_id && u.is_active !== false);
  return (
    <section>
      <h2>Other users' statuses</h2>
      <form class="settings-form" onSubmit={submit}>
        <label>User
          <select name="user">{users.map((u) => <option key={u.user_id} value={u.user_id}>{u.full_name}{state.userStatus.get(u.user_id)?.status_text ? ` — ${state.userStatus.get(u.user_id)!.status_text}` : ''}</option>)}</select>
        </label>
        <label>Status text <input name="text" maxLength={60} /></label>
        <label>Emoji name <input name="emoji" /></label>
        <button type="submit">Set status</button>
      </form>
      <p role="status">{outcome}</p>
    </section>
  );
}
