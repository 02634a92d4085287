// Administrators' settings: the organization's linkifiers (/realm/filters), custom emoji
// (POST and DELETE /realm/emoji/{name}), default channels (/default_streams) and other users'
// statuses (POST /users/{user_id}/status).
import type { Client } from '../client.js';
import { useStore } from '../store.js';
import { emojiGlyph } from './EmojiPicker.js';
import { submitting, useOutcome } from './outcome.js';

export function LinkifierSettings({ client }: { client: Client }) {
  const state = useStore(client.state);
  const [outcome, run] = useOutcome();
  const add = submitting(run, (data) => client.org.addLinkifier(String(data.get('pattern')), String(data.get('template'))));
  return (
    <section>
      <h2>Linkifiers</h2>
      <table class="linkifiers settings-table">
        <thead><tr><th scope="col">Pattern</th><th scope="col">URL template</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
        <tbody>
          {state.linkifiers.map((l) => (
            <tr key={l.id}>
              <td><code>{l.pattern}</code></td>
              <td><code>{l.url_template}</code></td>
              <td><button onClick={() => run(client.org.removeLinkifier(l.id), 'Removed.')}>Remove</button></td>
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

export function EmojiSettings({ client }: { client: Client }) {
  const state = useStore(client.state);
  const [outcome, run] = useOutcome();
  const add = submitting(run, (data) => {
    const file = data.get('file');
    return file instanceof File ? client.org.addEmoji(String(data.get('name') ?? '').trim(), file) : null;
  });
  const emoji = [...state.realmEmoji.values()].filter((e) => !e.deactivated).sort((a, b) => a.name.localeCompare(b.name));
  return (
    <section>
      <h2>Custom emoji</h2>
      {emoji.length === 0 && <p class="muted">No custom emoji yet.</p>}
      <ul class="custom-emoji">
        {emoji.map((e) => (
          <li key={e.id} data-emoji={e.name}>
            {emojiGlyph(client, { emoji_name: e.name, emoji_code: e.id, reaction_type: 'realm_emoji' })} <code>:{e.name}:</code>{' '}
            <button onClick={() => confirm(`Remove :${e.name}:?`) && run(client.org.removeEmoji(e.name), 'Removed.')}>Remove</button>
          </li>
        ))}
      </ul>
      <form class="settings-form" onSubmit={add}>
        <label>Name <input name="name" required pattern="[a-z0-9_\- ]+" placeholder="e.g. party_parrot" /></label>
        <label>Image <input name="file" type="file" accept="image/png,image/gif,image/jpeg,image/webp,image/avif" required /></label>
        <button type="submit">Add emoji</button>
      </form>
      <p role="status">{outcome}</p>
    </section>
  );
}

export function DefaultChannelSettings({ client }: { client: Client }) {
  const state = useStore(client.state);
  const [outcome, run] = useOutcome();
  const others = state.allStreams().filter((s) => !state.defaultStreams.includes(s.stream_id) && !s.is_archived).sort((a, b) => a.name.localeCompare(b.name));
  const add = (e: Event) => {
    e.preventDefault();
    run(client.channels.addDefault(Number(new FormData(e.target as HTMLFormElement).get('stream'))), 'Added.');
  };
  return (
    <section>
      <h2>Default channels</h2>
      <p class="muted">New users are subscribed to these channels when they join.</p>
      <ul class="default-channels">
        {state.defaultStreams.map((id) => (
          <li key={id}>#{state.streamName(id)} <button aria-label={`Remove #${state.streamName(id)} from the default channels`} onClick={() => run(client.channels.removeDefault(id), 'Removed.')}>Remove</button></li>
        ))}
      </ul>
      {others.length > 0 && (
        <form class="settings-form" onSubmit={add}>
          <label>Channel <select name="stream">{others.map((s) => <option key={s.stream_id} value={s.stream_id}>#{s.name}</option>)}</select></label>
          <button type="submit">Add default channel</button>
        </form>
      )}
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
    run(client.people.setStatus(Number(data.get('user')), { status_text: String(data.get('text') ?? ''), emoji_name: String(data.get('emoji') ?? '') }));
  };
  const users = [...state.users.values()].filter((u) => u.user_id !== state.me.user_id && u.is_active);
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
