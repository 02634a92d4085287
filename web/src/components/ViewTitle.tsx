// The open view's name in the top bar, and who is typing there.
import type { Client } from '../client.js';
import { conversationKey } from '../apply.js';
import type { View } from '../narrow.js';
import { useStore } from '../store.js';

const TITLES: Record<string, string> = { unread: 'Unread', mentions: 'Mentions', starred: 'Starred', drafts: 'Drafts', settings: 'Settings', all: 'All messages' };

export function ViewTitle({ client, view }: { client: Client; view: View }) {
  const state = useStore(client.state);
  let title = TITLES[view.kind] ?? '';
  let typingKey: string | undefined;
  if (view.kind === 'channel') {
    title = `#${state.subs.get(view.streamId)?.name ?? view.streamId}` + (view.topic === undefined ? '' : ` › ${view.topic || '(general chat)'}`);
    if (view.topic !== undefined) typingKey = conversationKey(view.streamId, view.topic);
  } else if (view.kind === 'dm') {
    const others = view.userIds.filter((id) => id !== state.me.user_id);
    title = others.length === 0 ? state.me.full_name : others.map((id) => state.userName(id)).join(', ');
    typingKey = conversationKey(undefined, undefined, view.userIds.includes(state.me.user_id) ? view.userIds : [...view.userIds, state.me.user_id].sort((a, b) => a - b));
  }
  const typing = typingKey === undefined ? [] : [...(state.typing.get(typingKey)?.keys() ?? [])].filter((id) => id !== state.me.user_id);
  return (
    <div class="view-title">
      <h1>{title}</h1>
      {typing.length > 0 && <span class="typing" aria-live="polite">{typing.map((id) => state.userName(id)).join(', ')} {typing.length === 1 ? 'is' : 'are'} typing…</span>}
    </div>
  );
}
