// The open view's name in the top bar, who is typing there, and in a topic its follow and mute
// buttons (POST /user_topics; https://zulip.com/help/follow-a-topic).
import type { Client } from '../client.js';
import { conversationKey } from '../apply.js';
import type { View } from '../narrow.js';
import { TOPIC_FOLLOWED, TOPIC_MUTED, useStore } from '../store.js';
import { useOutcome } from './outcome.js';

const TITLES: Record<string, string> = {
  unread: 'Unread', mentions: 'Mentions', starred: 'Starred', drafts: 'Drafts', settings: 'Settings', all: 'All messages', recent: 'Recent conversations',
  inbox: 'Inbox', followed: 'Followed topics', channels: 'Channels', organization: 'Organization settings',
};

/** The view's name, for the title bar and the tab's title. */
export function viewTitle(client: Client, view: View): string {
  const state = client.state;
  if (view.kind === 'channel') return `#${state.streamName(view.streamId)}` + (view.topic === undefined ? '' : ` › ${view.topic || '(general chat)'}`);
  if (view.kind === 'dm') {
    const others = view.userIds.filter((id) => id !== state.me.user_id);
    return others.length === 0 ? state.me.full_name : others.map((id) => state.userName(id)).join(', ');
  }
  if (view.kind === 'search') return `Search: ${view.query}`;
  return TITLES[view.kind] ?? '';
}

function TopicActions({ client, streamId, topic }: { client: Client; streamId: number; topic: string }) {
  const state = useStore(client.state);
  const [outcome, run] = useOutcome();
  const policy = state.topicPolicy(streamId, topic);
  const set = (p: number, done: string) => run(client.channels.setTopicPolicy(streamId, topic, policy === p ? 0 : p), done);
  return (
    <span class="topic-actions">
      <button class="follow-topic" aria-pressed={policy === TOPIC_FOLLOWED} onClick={() => set(TOPIC_FOLLOWED, policy === TOPIC_FOLLOWED ? 'Unfollowed.' : 'Followed.')}>
        {policy === TOPIC_FOLLOWED ? 'Following' : 'Follow'}
      </button>
      <button class="mute-topic" aria-pressed={policy === TOPIC_MUTED} onClick={() => set(TOPIC_MUTED, policy === TOPIC_MUTED ? 'Unmuted.' : 'Muted.')}>
        {policy === TOPIC_MUTED ? 'Muted' : 'Mute'}
      </button>
      <span class="visually-hidden" role="status">{outcome}</span>
    </span>
  );
}

export function ViewTitle({ client, view }: { client: Client; view: View }) {
  const state = useStore(client.state);
  let typingKey: string | undefined;
  if (view.kind === 'channel' && view.topic !== undefined) typingKey = conversationKey(view.streamId, view.topic);
  else if (view.kind === 'dm') {
    typingKey = conversationKey(undefined, undefined, view.userIds.includes(state.me.user_id) ? view.userIds : [...view.userIds, state.me.user_id].sort((a, b) => a - b));
  }
  const typing = typingKey === undefined ? [] : [...(state.typing.get(typingKey)?.keys() ?? [])].filter((id) => id !== state.me.user_id);
  return (
    <div class="view-title">
      <h1>{viewTitle(client, view)}</h1>
      {view.kind === 'channel' && view.topic !== undefined && <TopicActions client={client} streamId={view.streamId} topic={view.topic} />}
      {view.kind === 'channel' && view.topic === undefined && <a class="channel-settings-link" href={`#channels/${view.streamId}`}>Channel settings</a>}
      {typing.length > 0 && <span class="typing" aria-live="polite">{typing.map((id) => state.userName(id)).join(', ')} {typing.length === 1 ? 'is' : 'are'} typing…</span>}
    </div>
  );
}
