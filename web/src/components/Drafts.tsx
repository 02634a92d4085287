// The drafts view: the user's drafts as the server keeps them (GET /register's drafts, kept
// current by `drafts` events, so a draft deleted elsewhere disappears here too).
import type { Client } from '../client.js';
import { viewHash } from '../narrow.js';
import { useStore } from '../store.js';

export function Drafts({ client }: { client: Client }) {
  const state = useStore(client.state);
  const drafts = [...state.drafts.values()].sort((a, b) => b.timestamp - a.timestamp);
  if (drafts.length === 0) return <p class="empty">No drafts.</p>;
  return (
    <ul class="drafts">
      {drafts.map((d) => {
                const hash = d.type === 'stream'
          ? viewHash({ kind: 'channel', streamId: d.to[0]!, topic: d.topic })
          : viewHash({ kind: 'dm', userIds: [...d.to, state.me.user_id].sort((a, b) => a - b) });
        const where = d.type === 'stream' ? `#${state.streamName(d.to[0]!)} › ${d.topic}` : d.to.map((id) => state.userName(id)).join(', ');
        return (
          <li class="draft" key={d.id} data-draft-id={d.id}>
            <a href={hash}>{where}</a>
            <p class="draft-content">{d.content}</p>
            <button onClick={() => void client.messages.deleteDraft(d.id)}>Delete</button>
          </li>
        );
      })}
    </ul>
  );
}
