// Fills the state from POST /register and applies each event type the client registers for
// (Zulip's event documentation: https://zulip.com/api/get-events).
import { dmUserIds } from './narrow.js';
import { topicKey, type Draft, type Message, type State } from './store.js';

export const EVENT_TYPES = [
  'realm', 'realm_user', 'subscription', 'message', 'update_message_flags', 'starred_messages', 'drafts',
  'realm_emoji', 'alert_words', 'realm_linkifiers', 'user_status', 'navigation_view', 'typing',
  'update_message', 'delete_message', 'reaction',
];
// The state that needs no event type of its own to fetch.
export const FETCH_TYPES = [...EVENT_TYPES, 'navigation_views', 'recent_private_conversations'];

export function applyInitialState(state: State, s: any): void {
  state.me = { user_id: s.user_id, email: s.email, full_name: s.full_name, is_admin: Boolean(s.is_admin) };
  state.realm = { name: s.realm_name ?? '', icon: s.realm_icon_url ?? '' };
  state.users = new Map((s.realm_users ?? []).map((u: any) => [u.user_id, u]));
  state.subs = new Map((s.subscriptions ?? []).map((sub: any) => [sub.stream_id, sub]));
  state.unread = new Map();
  for (const entry of s.unread_msgs?.streams ?? []) {
    for (const id of entry.unread_message_ids) state.unread.set(id, { streamId: entry.stream_id, topic: entry.topic });
  }
  for (const entry of s.unread_msgs?.pms ?? []) {
    const key = [entry.other_user_id ?? entry.sender_id, state.me.user_id].filter((v, i, a) => a.indexOf(v) === i).sort((a, b) => a - b).join(',');
    for (const id of entry.unread_message_ids) state.unread.set(id, { dm: key });
  }
  for (const entry of s.unread_msgs?.huddles ?? []) {
    for (const id of entry.unread_message_ids) state.unread.set(id, { dm: entry.user_ids_string });
  }
  state.mentions = new Set(s.unread_msgs?.mentions ?? []);
  state.starred = new Set(s.starred_messages ?? []);
  state.drafts = new Map((s.drafts ?? []).map((d: Draft) => [d.id, d]));
  state.realmEmoji = new Map(Object.entries(s.realm_emoji ?? {}));
  state.alertWords = s.alert_words ?? [];
  state.linkifiers = s.realm_linkifiers ?? [];
  state.userStatus = new Map(Object.entries(s.user_status ?? {}).map(([id, st]) => [Number(id), st as any]));
  state.navigationViews = s.navigation_views ?? [];
  state.dmKeys = (s.recent_private_conversations ?? []).map((c: any) => [...c.user_ids, state.me.user_id].sort((a: number, b: number) => a - b).join(','));
  state.topics = new Map();
  state.typing = new Map();
}

/** The key typing notifications and drafts use for a conversation. */
export function conversationKey(streamId: number | undefined, topic: string | undefined, userIds?: number[]): string {
  return streamId !== undefined ? topicKey(streamId, topic ?? '') : `dm:${(userIds ?? []).join(',')}`;
}

function updateFlags(state: State, e: any): void {
  const ids: number[] = e.messages ?? [];
  for (const id of ids) {
    const m = state.messages.get(id);
    if (m) m.flags = e.op === 'add' ? [...new Set([...m.flags, e.flag])] : m.flags.filter((f) => f !== e.flag);
  }
  if (e.flag === 'read') {
    if (e.op === 'add') {
      if (e.all) state.unread.clear();
      for (const id of ids) {
        state.unread.delete(id);
        state.mentions.delete(id);
      }
    } else {
      for (const id of ids) {
        const detail = e.message_details?.[id];
        if (detail?.type === 'stream') state.unread.set(id, { streamId: detail.stream_id, topic: detail.topic });
        else if (detail) state.unread.set(id, { dm: [...(detail.user_ids ?? []), state.me.user_id].sort((a, b) => a - b).join(',') });
        if (detail?.mentioned) state.mentions.add(id);
      }
    }
  }
  if (e.flag === 'starred') for (const id of ids) e.op === 'add' ? state.starred.add(id) : state.starred.delete(id);
}

function newMessage(state: State, e: any, inOpenView: (m: Message) => boolean): void {
  const m: Message = { ...e.message, flags: e.flags ?? [] };
  if (m.type === 'stream') state.noteTopic(m.stream_id!, m.subject, m.id);
  else {
    const dm = dmUserIds(m).join(',');
    state.dmKeys = [dm, ...state.dmKeys.filter((k) => k !== dm)];
  }
  if (!m.flags.includes('read')) state.unread.set(m.id, state.placeOf(m));
  if (m.flags.some((f) => f === 'mentioned' || f === 'wildcard_mentioned') && !m.flags.includes('read')) state.mentions.add(m.id);
  // The sender stopped typing when the message arrived.
  const key = conversationKey(m.stream_id, m.subject, m.type === 'private' ? dmUserIds(m) : undefined);
  state.typing.get(key)?.delete(m.sender_id);
  if (state.view.foundNewest && inOpenView(m) && !state.messages.has(m.id)) {
    state.messages.set(m.id, m);
    state.view.ids = [...state.view.ids, m.id].sort((a, b) => a - b);
  }
}

function updateMessage(state: State, e: any): void {
  const m = state.messages.get(e.message_id);
  if (m && e.rendered_content !== undefined) {
    m.content = e.rendered_content;
    m.last_edit_timestamp = e.edit_timestamp;
  }
  for (const id of e.message_ids ?? []) {
    const moved = state.messages.get(id);
    if (moved && e.subject !== undefined) moved.subject = e.subject;
    if (moved && e.new_stream_id !== undefined) moved.stream_id = e.new_stream_id;
    const place = state.unread.get(id);
    if (place && 'streamId' in place) {
      state.unread.set(id, { streamId: e.new_stream_id ?? place.streamId, topic: e.subject ?? place.topic });
    }
  }
}

export function applyEvent(state: State, e: any, inOpenView: (m: Message) => boolean): void {
  switch (e.type) {
    case 'message':
      return newMessage(state, e, inOpenView);
    case 'update_message_flags':
      return updateFlags(state, e);
    case 'update_message':
      return updateMessage(state, e);
    case 'delete_message':
      for (const id of e.message_ids ?? [e.message_id]) {
        state.messages.delete(id);
        state.unread.delete(id);
        state.starred.delete(id);
      }
      state.view.ids = state.view.ids.filter((id) => state.messages.has(id));
      return;
    case 'reaction': {
      const m = state.messages.get(e.message_id);
      if (!m) return;
      const same = (r: any) => r.user_id === e.user_id && r.emoji_code === e.emoji_code && r.reaction_type === e.reaction_type;
      m.reactions = e.op === 'add' ? [...m.reactions.filter((r) => !same(r)), { ...e }] : m.reactions.filter((r) => !same(r));
      return;
    }
    case 'drafts':
      if (e.op === 'add') for (const d of e.drafts) state.drafts.set(d.id, d);
      if (e.op === 'update') state.drafts.set(e.draft.id, e.draft);
      if (e.op === 'remove') state.drafts.delete(e.draft_id);
      return;
    case 'typing': {
      const ids = e.message_type === 'stream' ? undefined : (e.recipients ?? []).map((r: any) => r.user_id).sort((a: number, b: number) => a - b);
      const key = conversationKey(e.stream_id, e.topic, ids);
      const who = state.typing.get(key) ?? new Map<number, number>();
      if (e.op === 'start') who.set(e.sender.user_id, Date.now());
      else who.delete(e.sender.user_id);
      state.typing.set(key, who);
      return;
    }
    case 'subscription':
      if (e.op === 'add') for (const sub of e.subscriptions) state.subs.set(sub.stream_id, sub);
      if (e.op === 'remove') for (const sub of e.subscriptions) state.subs.delete(sub.stream_id);
      if (e.op === 'update') {
        const sub = state.subs.get(e.stream_id);
        if (sub) state.subs.set(e.stream_id, { ...sub, [e.property]: e.value });
      }
      return;
    case 'realm_user':
      if (e.op === 'add') state.users.set(e.person.user_id, e.person);
      if (e.op === 'update') {
        const user = state.users.get(e.person.user_id);
        if (user) state.users.set(user.user_id, { ...user, ...e.person });
      }
      return;
    case 'realm':
      if (e.op === 'update' && e.property === 'name') state.realm.name = e.value;
      if (e.op === 'update_dict' && e.data?.name !== undefined) state.realm.name = e.data.name;
      return;
    case 'realm_emoji':
      state.realmEmoji = new Map(Object.entries(e.realm_emoji ?? {}));
      return;
    case 'alert_words':
      state.alertWords = e.alert_words;
      return;
    case 'realm_linkifiers':
      state.linkifiers = e.realm_linkifiers;
      return;
    case 'user_status': {
      const { type: _type, id: _id, user_id, ...fields } = e;
      state.userStatus.set(user_id, { ...state.userStatus.get(user_id), ...fields });
      return;
    }
    case 'navigation_view':
      if (e.op === 'add') state.navigationViews = [...state.navigationViews, e.navigation_view];
      if (e.op === 'update') state.navigationViews = state.navigationViews.map((v) => (v.fragment === e.fragment ? { ...v, ...e.data } : v));
      if (e.op === 'remove') state.navigationViews = state.navigationViews.filter((v) => v.fragment !== e.fragment);
      return;
  }
}
