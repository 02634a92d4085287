// Creating a channel (Zulip: POST /users/me/subscriptions with a new name): its name,
// description, public or private, and its first members (the creator among them).
import { useState } from 'preact/hooks';
import { ApiFailure } from '../api.js';
import type { Client } from '../client.js';
import { useStore } from '../store.js';
import { RecipientPicker } from './RecipientPicker.js';

export function NewChannel({ client }: { client: Client }) {
  const state = useStore(client.state);
  const [members, setMembers] = useState<number[]>([]);
  const [error, setError] = useState('');
  const submit = async (e: Event) => {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    const name = String(data.get('name') ?? '').trim();
    try {
      await client.channels.create({
        name,
        description: String(data.get('description') ?? ''),
        inviteOnly: data.get('privacy') === 'private',
        principals: [state.me.user_id, ...members],
      });
      location.hash = `#channel/${await client.channels.idOf(name)}`;
    } catch (err) {
      setError(err instanceof ApiFailure ? err.message : 'Not created.');
    }
  };
  return (
    <div class="page new-channel">
      <h2>Create a channel</h2>
      <form class="stacked-form" onSubmit={(e) => void submit(e)}>
        <label>Name <input name="name" required maxLength={state.realm.maxStreamName} autofocus /></label>
        <label>Description <textarea name="description" rows={2} /></label>
        <fieldset>
          <legend>Who can join</legend>
          <label class="inline"><input type="radio" name="privacy" value="public" defaultChecked /> Public: anyone in the organization can join</label>
          <label class="inline"><input type="radio" name="privacy" value="private" /> Private: only people who are added</label>
        </fieldset>
        <div class="field">
          <span id="members-label">Members (you are added)</span>
          <RecipientPicker state={state} label="Add members" chosen={members} onChange={setMembers} exclude={[state.me.user_id]} />
        </div>
        {error && <p class="error" role="alert">{error}</p>}
        <div class="form-actions">
          <button type="submit" class="send">Create</button>
          <a href="#channels/all">Cancel</a>
        </div>
      </form>
    </div>
  );
}
