// Administrators' user list: roles (PATCH /users/{user_id}), deactivation and reactivation
// (DELETE /users/{user_id}, POST /users/{user_id}/reactivate), each confirmed first.
import { useState } from 'preact/hooks';
import type { Client } from '../client.js';
import { ROLE_CHOICES, roleName } from '../people.js';
import { useStore } from '../store.js';
import type { User } from '../types.js';
import { useOutcome } from './outcome.js';

export function AdminUsers({ client }: { client: Client }) {
  const state = useStore(client.state);
  const [filter, setFilter] = useState('');
  const [outcome, run] = useOutcome();
  const q = filter.trim().toLowerCase();
  const users = [...state.users.values(), ...state.inactiveUsers.values()]
    .filter((u) => q === '' || u.full_name.toLowerCase().includes(q) || u.email.toLowerCase().includes(q))
    .sort((a, b) => Number(b.is_active) - Number(a.is_active) || a.full_name.localeCompare(b.full_name));
  const setRole = (u: User, role: number) => {
    if (confirm(`Make ${u.full_name} ${roleName(role).toLowerCase()}?`)) run(client.org.setRole(u.user_id, role), `${u.full_name} is now ${roleName(role).toLowerCase()}.`);
    else state.changed();
  };
  const toggleActive = (u: User) => {
    const verb = u.is_active ? 'Deactivate' : 'Reactivate';
    const warning = u.is_active ? ' They are signed out at once and can no longer sign in.' : '';
    if (confirm(`${verb} ${u.full_name}?${warning}`)) {
      run(u.is_active ? client.org.deactivate(u.user_id) : client.org.reactivate(u.user_id), `${u.full_name} ${u.is_active ? 'deactivated' : 'reactivated'}.`);
    }
  };
  return (
    <section>
      <h2>Users</h2>
      <input type="search" aria-label="Filter users" placeholder="Filter users" value={filter} onInput={(e) => setFilter((e.target as HTMLInputElement).value)} />
      <p role="status">{outcome}</p>
      <table class="settings-table users-table">
        <thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Role</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
        <tbody>
          {users.map((u) => {
            const self = u.user_id === state.me.user_id;
            return (
              <tr key={u.user_id} data-user-id={u.user_id} class={u.is_active ? '' : 'deactivated'}>
                <td>{u.full_name}{u.is_bot ? ' (bot)' : ''}{u.is_active ? '' : ' (deactivated)'}</td>
                <td>{u.delivery_email ?? u.email}</td>
                <td>
                  <select aria-label={`Role of ${u.full_name}`} value={u.role} disabled={self || !u.is_active || (u.role === 100 && !state.me.is_owner)}
                    onChange={(e) => setRole(u, Number((e.target as HTMLSelectElement).value))}>
                    {ROLE_CHOICES.filter((r) => r !== 100 || state.me.is_owner || u.role === 100).map((r) => <option key={r} value={r}>{roleName(r)}</option>)}
                  </select>
                </td>
                <td>{!self && <button class={u.is_active ? 'danger deactivate' : 'reactivate'} onClick={() => toggleActive(u)}>{u.is_active ? 'Deactivate' : 'Reactivate'}</button>}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
