// Zulip's conversation views: Recent conversations (every topic and direct message conversation
// by last activity), Inbox (unread messages by conversation) and Followed topics.
import type { Client } from '../client.js';
import { formatDate } from '../dates.js';
import { viewHash } from '../narrow.js';
import { topicKey, TOPIC_FOLLOWED, useStore, type Conversation, type State } from '../store.js';

const when = (seconds: number, twentyFour: boolean) => {
  const d = new Date(seconds * 1000);
  return d.toDateString() === new Date().toDateString()
    ? formatDate(d, { hour: 'numeric', minute: '2-digit', hour12: !twentyFour })
    : formatDate(d, { month: 'short', day: 'numeric' });
};

function conversationLink(state: State, c: Pick<Conversation, 'streamId' | 'topic' | 'userIds'>) {
  if (c.streamId !== undefined) {
    return { hash: viewHash({ kind: 'channel', streamId: c.streamId, topic: c.topic }), label: `#${state.streamName(c.streamId)} › ${c.topic || '(general chat)'}` };
  }
  const others = (c.userIds ?? []).filter((id) => id !== state.me.user_id);
  return { hash: viewHash({ kind: 'dm', userIds: c.userIds ?? [] }), label: others.length === 0 ? state.me.full_name : others.map((id) => state.userName(id)).join(', ') };
}

export function Recent({ client }: { client: Client }) {
  const state = useStore(client.state);
  const counts = state.unreadCounts();
  const rows = [...state.conversations.values()]
    .filter((c) => c.streamId === undefined || (state.subs.has(c.streamId) && !state.isMuted(c.streamId, c.topic)))
    .sort((a, b) => b.lastId - a.lastId);
  const twentyFour = state.setting('twenty_four_hour_time', false);
  if (rows.length === 0) return <p class="empty">No conversations yet.</p>;
  return (
    <div class="page recent">
      <table class="conversations">
        <caption class="visually-hidden">Recent conversations</caption>
        <thead><tr><th scope="col">Conversation</th><th scope="col">Unread</th><th scope="col">Participants</th><th scope="col">Last message</th></tr></thead>
        <tbody>
          {rows.map((c) => {
            const link = conversationLink(state, c);
            const unread = c.streamId !== undefined ? counts.topics.get(topicKey(c.streamId, c.topic)) : counts.dms.get((c.userIds ?? []).join(','));
            return (
              <tr key={c.key} data-conversation={c.key}>
                <td><a href={link.hash}>{link.label}</a></td>
                <td>{unread ? <span class="count">{unread}</span> : ''}</td>
                <td class="participants">{c.senders.slice(0, 4).map((id) => state.userName(id)).join(', ')}</td>
                <td><time dateTime={new Date(c.timestamp * 1000).toISOString()}>{when(c.timestamp, twentyFour)}</time></td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** Unread conversations grouped: direct messages first, then each channel's topics. */
export function Inbox({ client, followedOnly = false }: { client: Client; followedOnly?: boolean }) {
  const state = useStore(client.state);
  const counts = state.unreadCounts();
  const dms = followedOnly ? [] : [...counts.dms.entries()];
  const byStream = new Map<number, { topic: string; count: number }[]>();
  const topicNames = new Map<string, string>();
  for (const place of state.unread.values()) if ('streamId' in place) topicNames.set(topicKey(place.streamId, place.topic), place.topic);
  for (const [key, count] of counts.topics) {
    const streamId = Number(key.split('\u0000')[0]);
    const topic = topicNames.get(key) ?? '';
    if (state.isMuted(streamId, topic) && state.topicPolicy(streamId, topic) !== TOPIC_FOLLOWED) continue;
    if (followedOnly && state.topicPolicy(streamId, topic) !== TOPIC_FOLLOWED) continue;
    byStream.set(streamId, [...(byStream.get(streamId) ?? []), { topic, count }]);
  }
  const followed = followedOnly ? [...state.userTopics.values()].filter((t) => t.visibility_policy === TOPIC_FOLLOWED) : [];
  if (dms.length === 0 && byStream.size === 0 && followed.length === 0) {
    return <p class="empty">{followedOnly ? 'You follow no topics yet: "Follow" in a topic\'s title bar adds it here.' : 'No unread messages. You are all caught up!'}</p>;
  }
  return (
    <div class="page inbox">
      {dms.length > 0 && (
        <section>
          <h2>Direct messages</h2>
          <ul class="inbox-list">
            {dms.map(([key, count]) => {
              const link = conversationLink(state, { topic: '', userIds: key.split(',').map(Number) });
              return <li key={key}><a href={link.hash}>{link.label}</a> <span class="count">{count}</span></li>;
            })}
          </ul>
        </section>
      )}
      {[...byStream.entries()].map(([streamId, topics]) => (
        <section key={streamId}>
          <h2><a href={viewHash({ kind: 'channel', streamId })}>#{state.streamName(streamId)}</a></h2>
          <ul class="inbox-list">
            {topics.map((t) => (
              <li key={t.topic}><a href={viewHash({ kind: 'channel', streamId, topic: t.topic })}>{t.topic || '(general chat)'}</a> <span class="count">{t.count}</span></li>
            ))}
          </ul>
        </section>
      ))}
      {followed.length > 0 && (
        <section>
          <h2>Followed topics</h2>
          <ul class="inbox-list followed-list">
            {followed.map((t) => {
              const link = conversationLink(state, { streamId: t.stream_id, topic: t.topic_name });
              const count = counts.topics.get(topicKey(t.stream_id, t.topic_name));
              return <li key={link.hash}><a href={link.hash}>{link.label}</a>{count ? <span class="count">{count}</span> : null}</li>;
            })}
          </ul>
        </section>
      )}
    </div>
  );
}
