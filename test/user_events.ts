// realm_user and realm_bot events applied to the /register state as a client does: applying the
// events of a change to the state fetched before gives the state fetched after (Zulip's
// test_events.py discipline). Used by test/users.test.ts and test/bot_events.test.ts.
import type { TestServer, TestUser } from './helpers.js';

export type State = { realm_users: any[]; realm_non_active_users: any[]; [key: string]: any };

/** Applies a realm_user or realm_bot event as a client does. */
export function applyUserEvent(state: State, event: any, me: number): void {
  if (event.type === 'realm_bot') return applyBotEvent(state, event);
  if (event.type !== 'realm_user') return;
  if (event.op === 'add') {
    state.realm_users.push(event.person);
    return;
  }
  const { user_id, ...changes } = event.person;
  let list = state.realm_users;
  let index = list.findIndex((u) => u.user_id === user_id);
  if (index < 0) {
    list = state.realm_non_active_users;
    index = list.findIndex((u) => u.user_id === user_id);
  }
  const person = { ...list[index], ...changes };
  if ('role' in changes) {
    Object.assign(person, { is_admin: changes.role <= 200, is_owner: changes.role === 100, is_guest: changes.role === 600 });
    if (user_id === me) {
      Object.assign(state, { is_admin: changes.role <= 200, is_owner: changes.role === 100, is_moderator: changes.role === 300, is_guest: changes.role === 600 });
    }
  }
  if ('full_name' in changes && user_id === me) state.full_name = changes.full_name;
  list.splice(index, 1);
  (person.is_active ? state.realm_users : state.realm_non_active_users).push(person);
}

export const byId = (users: any[]) => [...users].sort((a, b) => a.user_id - b.user_id);

export async function registerState(s: TestServer, user: TestUser, eventTypes = ['realm_user']): Promise<{ queueId: string; lastEventId: number; state: State }> {
  const reply = await s.request('POST', '/register', { as: user, params: { event_types: eventTypes } });
  const { result, msg, queue_id, last_event_id, zulip_version, zulip_feature_level, zulip_merge_base, ...state } = reply.body;
  return { queueId: queue_id, lastEventId: last_event_id, state: state as State };
}

function applyBotEvent(state: State, event: any): void {
  const bots: any[] = state.realm_bots;
  const index = bots.findIndex((bot) => bot.user_id === event.bot.user_id);
  if (event.op === 'add') bots.push(event.bot);
  else if (event.op === 'delete') bots.splice(index, 1);
  else if (index >= 0) bots[index] = { ...bots[index], ...event.bot };
}
