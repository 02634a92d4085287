// A channel's settings: one's own (colour, mute, pin, notifications: POST
// /users/me/subscriptions/properties) and, for administrators, the channel's (name, description,
// privacy, archive: PATCH and DELETE /streams/{stream_id}).
import type { Client } from '../client.js';
import type { SubscriptionProperty } from '../requests/channels.js';
import { useStore } from '../store.js';
import type { Sub } from '../types.js';
import { useOutcome } from './outcome.js';

const NOTIFICATIONS: [SubscriptionProperty, string][] = [
  ['desktop_notifications', 'Desktop notifications'],
  ['audible_notifications', 'Audible notifications'],
  ['push_notifications', 'Mobile notifications'],
  ['email_notifications', 'Email notifications'],
  ['wildcard_mentions_notify', 'Notify for @all / @everyone mentions'],
];

function PersonalChannelSettings({ client, sub }: { client: Client; sub: Sub }) {
  const [outcome, run] = useOutcome();
  const set = (property: SubscriptionProperty, value: boolean | string) => run(client.channels.setProperty(sub.stream_id, property, value));
  const check = (property: SubscriptionProperty, label: string, value: boolean) => (
    <label class="inline" key={property}><input type="checkbox" name={property} checked={value} onChange={(e) => set(property, (e.target as HTMLInputElement).checked)} /> {label}</label>
  );
  return (
    <section>
      <h3>Your settings</h3>
      <div class="stacked-form">
        <label class="inline">Colour <input type="color" name="color" value={sub.color} onChange={(e) => set('color', (e.target as HTMLInputElement).value)} /></label>
        {check('is_muted', 'Mute this channel', sub.is_muted)}
        {check('pin_to_top', 'Pin to the top of the channel list', sub.pin_to_top)}
        {NOTIFICATIONS.map(([p, label]) => {
          const value = sub[p as keyof Sub];
          return check(p, label, typeof value === 'boolean' ? value : client.state.setting(p === 'wildcard_mentions_notify' ? 'wildcard_mentions_notify' : `enable_stream_${p}`, p === 'wildcard_mentions_notify'));
        })}
      </div>
      <p role="status">{outcome}</p>
    </section>
  );
}

export function ChannelSettings({ client, streamId }: { client: Client; streamId: number }) {
  const state = useStore(client.state);
  const [outcome, run] = useOutcome();
  const sub = state.subs.get(streamId);
  const stream = sub ?? state.streams.get(streamId);
  if (!stream) return <p class="empty">No such channel.</p>;
  const save = (e: Event) => {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    const name = String(data.get('name') ?? '').trim();
    const description = String(data.get('description') ?? '');
    const isPrivate = data.get('privacy') === 'private';
    run(client.channels.update(streamId, {
      ...(name !== stream.name ? { new_name: name } : {}),
      ...(description !== stream.description ? { description } : {}),
      ...(isPrivate !== stream.invite_only ? { is_private: isPrivate } : {}),
    }));
  };
  const archive = () => {
    if (confirm(`Archive #${stream.name}? Nobody can send messages to it any more.`)) {
      run(client.channels.archive(streamId).then(() => { location.hash = '#channels/all'; }), 'Archived.');
    }
  };
  return (
    <div class="page channel-settings" data-stream-id={streamId}>
      <div class="page-head">
        <h2>#{stream.name}</h2>
        <a href="#channels/all">All channels</a>
      </div>
      {sub ? <PersonalChannelSettings client={client} sub={sub} /> : <p>You are not subscribed to this channel.</p>}
      {state.me.is_admin && (
        <section>
          <h3>Channel settings</h3>
          <form class="stacked-form" onSubmit={save} key={`${stream.name}/${stream.description}/${stream.invite_only}`}>
            <label>Name <input name="name" defaultValue={stream.name} maxLength={state.realm.maxStreamName} required /></label>
            <label>Description <textarea name="description" rows={2} defaultValue={stream.description} /></label>
            <fieldset>
              <legend>Privacy</legend>
              <label class="inline"><input type="radio" name="privacy" value="public" defaultChecked={!stream.invite_only} /> Public</label>
              <label class="inline"><input type="radio" name="privacy" value="private" defaultChecked={stream.invite_only} /> Private</label>
            </fieldset>
            <div class="form-actions">
              <button type="submit" class="send">Save changes</button>
              <button type="button" class="danger" onClick={archive}>Archive channel</button>
            </div>
          </form>
          <p role="status">{outcome}</p>
        </section>
      )}
    </div>
  );
}
