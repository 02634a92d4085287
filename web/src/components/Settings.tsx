// Settings: one's own status (text and emoji, POST /users/me/status), alert words, and for
// administrators the organization's linkifiers and other users' statuses.
import type { Client } from '../client.js';
import { useStore } from '../store.js';
import { LinkifierSettings, UserStatusAdmin } from './AdminSettings.js';
import { useOutcome } from './outcome.js';

function StatusSettings({ client }: { client: Client }) {
  const state = useStore(client.state);
  const mine = state.userStatus.get(state.me.user_id) ?? {};
  const [outcome, run] = useOutcome();
  const submit = (e: Event) => {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    const emoji = String(data.get('emoji') ?? '').trim().replace(/^:|:$/g, '');
    run(client.api.post('users/me/status', { status_text: String(data.get('text') ?? ''), emoji_name: emoji }));
  };
  return (
    <section>
      <h2>Your status</h2>
      <form class="settings-form" onSubmit={submit}>
        <label>Status text <input name="text" maxLength={60} value={mine.status_text ?? ''} /></label>
        <label>Emoji name <input name="emoji" placeholder="e.g. palm_tree" value={mine.emoji_name ?? ''} /></label>
        <button type="submit">Save status</button>
        <button type="button" onClick={() => run(client.api.post('users/me/status', { status_text: '', emoji_name: '' }), 'Cleared.')}>Clear</button>
      </form>
      <p role="status">{outcome}</p>
    </section>
  );
}

function AlertWordSettings({ client }: { client: Client }) {
  const state = useStore(client.state);
  const [outcome, run] = useOutcome();
  const add = (e: Event) => {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const word = String(new FormData(form).get('word') ?? '').trim();
    if (word) run(client.api.post('users/me/alert_words', { alert_words: [word] }).then(() => form.reset()), 'Added.');
  };
  return (
    <section>
      <h2>Alert words</h2>
      <ul class="alert-words">
        {state.alertWords.map((w) => (
          <li key={w}>{w} <button aria-label={`Remove ${w}`} onClick={() => run(client.api.delete('users/me/alert_words', { alert_words: [w] }), 'Removed.')}>Remove</button></li>
        ))}
      </ul>
      <form class="settings-form" onSubmit={add}>
        <label>New alert word <input name="word" /></label>
        <button type="submit">Add</button>
      </form>
      <p role="status">{outcome}</p>
    </section>
  );
}

export function Settings({ client }: { client: Client }) {
  const state = useStore(client.state);
  return (
    <div class="settings">
      <StatusSettings client={client} />
      <AlertWordSettings client={client} />
      {state.me.is_admin && <LinkifierSettings client={client} />}
      {state.me.is_admin && <UserStatusAdmin client={client} />}
    </div>
  );
}
