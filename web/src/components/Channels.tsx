// The channel browser (Zulip's "Browse channels"): every channel one may see, with its
// description and subscriber count, filtered; subscribe and unsubscribe; links to a channel's
// settings and to creating one.
import { useState } from 'preact/hooks';
import type { Client } from '../client.js';
import { viewHash } from '../narrow.js';
import { useStore } from '../store.js';
import { ChannelSettings } from './ChannelSettings.js';
import { NewChannel } from './NewChannel.js';
import { useOutcome } from './outcome.js';

export function ChannelsPage({ client, section }: { client: Client; section: string }) {
  if (section === 'new') return <NewChannel client={client} />;
  if (/^\d+$/.test(section)) return <ChannelSettings client={client} streamId={Number(section)} />;
  return <ChannelBrowser client={client} />;
}

function ChannelBrowser({ client }: { client: Client }) {
  const state = useStore(client.state);
  const [filter, setFilter] = useState('');
  const [which, setWhich] = useState<'all' | 'subscribed' | 'other'>('all');
  const [outcome, run] = useOutcome();
  const q = filter.trim().toLowerCase();
  const shown = state.allStreams()
    .filter((s) => !s.is_archived && (q === '' || s.name.toLowerCase().includes(q) || s.description.toLowerCase().includes(q)))
    .filter((s) => which === 'all' || (which === 'subscribed') === state.subs.has(s.stream_id))
    .sort((a, b) => a.name.localeCompare(b.name));
  return (
    <div class="page channel-browser">
      <div class="page-head">
        <h2>Channels</h2>
        <a class="button send" href="#channels/new">Create channel</a>
      </div>
      <div class="filters">
        <input type="search" aria-label="Filter channels" placeholder="Filter channels" value={filter} onInput={(e) => setFilter((e.target as HTMLInputElement).value)} />
        <div role="group" aria-label="Which channels">
          {(['all', 'subscribed', 'other'] as const).map((w) => (
            <button key={w} aria-pressed={which === w} onClick={() => setWhich(w)}>{w === 'all' ? 'All' : w === 'subscribed' ? 'Subscribed' : 'Not subscribed'}</button>
          ))}
        </div>
      </div>
      <p role="status" class="outcome">{outcome}</p>
      {shown.length === 0 && <p class="empty">No channels match.</p>}
      <ul class="channel-cards">
        {shown.map((s) => {
          const subscribed = state.subs.has(s.stream_id);
          return (
            <li key={s.stream_id} class="channel-card" data-stream-id={s.stream_id}>
              <div class="channel-card-main">
                <a class="channel-name" href={viewHash({ kind: 'channel', streamId: s.stream_id })}>{s.invite_only ? '🔒 ' : '#'}{s.name}</a>
                <div class="rendered channel-description" dangerouslySetInnerHTML={{ __html: s.rendered_description || '<p class="muted">No description.</p>' }} />
                <span class="muted subscriber-count">{s.subscriber_count} {s.subscriber_count === 1 ? 'subscriber' : 'subscribers'}</span>
              </div>
              <div class="channel-card-actions">
                <button class={subscribed ? 'unsubscribe' : 'subscribe send'} aria-label={`${subscribed ? 'Unsubscribe from' : 'Subscribe to'} ${s.name}`}
                  onClick={() => run(subscribed ? client.channels.unsubscribe([s.name]) : client.channels.subscribe([s.name]), subscribed ? `Unsubscribed from #${s.name}.` : `Subscribed to #${s.name}.`)}>
                  {subscribed ? 'Unsubscribe' : 'Subscribe'}
                </button>
                <a href={`#channels/${s.stream_id}`} aria-label={`Settings of ${s.name}`}>Settings</a>
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
