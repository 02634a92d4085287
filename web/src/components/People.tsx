// The right-hand column: the organization's people with their presence (active, idle, offline),
// searchable; a person opens their profile card.
import { useState } from 'preact/hooks';
import type { Client } from '../client.js';
import { peopleList, presenceStatus } from '../people.js';
import { useStore } from '../store.js';
import { PresenceDot } from './PresenceDot.js';
import { ProfileCard } from './ProfileCard.js';

export function People({ client }: { client: Client }) {
  const state = useStore(client.state);
  const [filter, setFilter] = useState('');
  const [open, setOpen] = useState<number | null>(null);
  const people = peopleList(state, filter);
  return (
    <aside class="people" aria-label="People">
      <h2 id="people-heading">People</h2>
      <input type="search" class="people-search" aria-label="Search people" placeholder="Search people" value={filter}
        onInput={(e) => setFilter((e.target as HTMLInputElement).value)} />
      <ul class="people-list" aria-labelledby="people-heading">
        {people.map((u) => {
          const status = presenceStatus(state, u.user_id);
          const text = state.userStatus.get(u.user_id)?.status_text;
          return (
            <li key={u.user_id} data-user-id={u.user_id} data-presence={status}>
              <button class="person" aria-haspopup="dialog" onClick={() => setOpen(u.user_id)}>
                <PresenceDot status={status} />
                <span class="person-name">{u.full_name}{u.user_id === state.me.user_id ? ' (you)' : ''}</span>
                {text && <span class="person-status">{text}</span>}
              </button>
            </li>
          );
        })}
      </ul>
      {open !== null && <ProfileCard client={client} userId={open} onClose={() => setOpen(null)} />}
    </aside>
  );
}
