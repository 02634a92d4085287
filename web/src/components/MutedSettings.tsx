// Topics one muted, unmuted or follows (POST /user_topics) and muted users (POST/DELETE
// /users/me/muted_users/{id}), each with its undo (https://zulip.com/help/mute-a-topic).
import type { Client } from '../client.js';
import { viewHash } from '../narrow.js';
import { TOPIC_FOLLOWED, TOPIC_MUTED, TOPIC_UNMUTED, useStore } from '../store.js';
import { useOutcome } from './outcome.js';

const POLICY = { [TOPIC_MUTED]: 'Muted', [TOPIC_UNMUTED]: 'Unmuted', [TOPIC_FOLLOWED]: 'Followed' } as Record<number, string>;

export function MutedSettings({ client }: { client: Client }) {
  const state = useStore(client.state);
  const [outcome, run] = useOutcome();
  const topics = [...state.userTopics.values()].filter((t) => t.visibility_policy !== 0).sort((a, b) => b.last_updated - a.last_updated);
  return (
    <>
      <section>
        <h2>Topics</h2>
        {topics.length === 0 ? <p class="muted">No muted or followed topics.</p> : (
          <table class="settings-table topic-settings">
            <thead><tr><th scope="col">Topic</th><th scope="col">Setting</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
            <tbody>
              {topics.map((t) => (
                <tr key={`${t.stream_id}/${t.topic_name}`}>
                  <td><a href={viewHash({ kind: 'channel', streamId: t.stream_id, topic: t.topic_name })}>#{state.streamName(t.stream_id)} › {t.topic_name || '(general chat)'}</a></td>
                  <td>{POLICY[t.visibility_policy] ?? ''}</td>
                  <td><button onClick={() => run(client.channels.setTopicPolicy(t.stream_id, t.topic_name, 0), 'Reset.')}>{t.visibility_policy === TOPIC_FOLLOWED ? 'Unfollow' : t.visibility_policy === TOPIC_MUTED ? 'Unmute' : 'Reset'}</button></td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section>
        <h2>Muted users</h2>
        <p class="muted">Their messages are hidden and marked read for you; mute someone from their profile card.</p>
        {state.mutedUsers.size === 0 ? <p class="muted">No muted users.</p> : (
          <ul class="muted-users">
            {[...state.mutedUsers].map((id) => (
              <li key={id}>{state.userName(id)} <button onClick={() => run(client.people.mute(id, false), 'Unmuted.')}>Unmute</button></li>
            ))}
          </ul>
        )}
      </section>
      <p role="status">{outcome}</p>
    </>
  );
}
