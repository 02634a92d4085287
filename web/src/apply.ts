// Applies each event type the client registers for to the state (Zulip's event documentation:
// https://zulip.com/api/get-events); the initial state is apply_state.ts's.
import { presenceOf } from './apply_state.js';
import { dmUserIds } from './narrow.js';
import { topicKey, type State } from './store.js';
import type { EventOf, Message, ServerEvent } from './types.js';

export { applyInitialState } from './apply_state.js';

/** The key typing notifications and drafts use for a conversation. */
export function conversationKey(streamId: number | undefined, topic: string | undefined, userIds?: number[]): string {
  return streamId !== undefined ? topicKey(streamId, topic ?? '') : `dm:${(userIds ?? []).join(',')}`;
}

const withMe = (state: State, ids: number[]): string => [...new Set([...ids, state.me.user_id])].sort((a, b) => a - b).join(',');

function updateFlags(state: State, e: EventOf<'update_message_flags'>): void {
  const ids = e.messages;
  for (const id of ids) {
    const m = state.messages.get(id);
    if (m) state.messages.set(id, { ...m, flags: e.op === 'add' ? [...new Set([...m.flags, e.flag])] : m.flags.filter((f) => f !== e.flag) });
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
        const detail = e.message_details?.[String(id)];
        if (detail?.type === 'stream') state.unread.set(id, { streamId: detail.stream_id, topic: detail.topic });
        else if (detail) state.unread.set(id, { dm: withMe(state, detail.user_ids) });
        if (detail?.mentioned) state.mentions.add(id);
      }
    }
  }
  if (e.flag === 'starred') for (const id of ids) e.op === 'add' ? state.starred.add(id) : state.starred.delete(id);
}

function newMessage(state: State, e: EventOf<'message'>, inOpenView: (m: Message) => boolean): void {
  const m: Message = { ...e.message, flags: e.flags };
  if (m.type === 'stream') state.noteTopic(m.stream_id ?? 0, m.subject, m.id);
  else {
    const dm = dmUserIds(m).join(',');
    state.dmKeys = [dm, ...state.dmKeys.filter((k) => k !== dm)];
  }
  if (!m.flags.includes('read')) state.unread.set(m.id, state.placeOf(m));
  if (m.flags.some((f) => f === 'mentioned' || f === 'wildcard_mentioned') && !m.flags.includes('read')) state.mentions.add(m.id);
  state.realm.maxMessageId = Math.max(state.realm.maxMessageId, m.id);
  state.noteConversation(m);
  // The sender stopped typing when the message arrived.
  const key = conversationKey(m.stream_id, m.subject, m.type === 'private' ? dmUserIds(m) : undefined);
  state.typing.get(key)?.delete(m.sender_id);
  if (state.view.foundNewest && inOpenView(m) && !state.messages.has(m.id)) {
    state.messages.set(m.id, m);
    state.view.ids = [...state.view.ids, m.id].sort((a, b) => a - b);
  }
}

function updateMessage(state: State, e: EventOf<'update_message'>): void {
  const m = state.messages.get(e.message_id);
  if (m && e.rendered_content !== undefined) state.messages.set(m.id, { ...m, content: e.rendered_content, last_edit_timestamp: e.edit_timestamp });
  for (const id of e.message_ids) {
    const moved = state.messages.get(id);
    if (moved && e.subject !== undefined) state.messages.set(id, { ...moved, subject: e.subject });
    const place = state.unread.get(id);
    if (place && 'streamId' in place && e.subject !== undefined) state.unread.set(id, { streamId: place.streamId, topic: e.subject });
  }
}

function typing(state: State, e: EventOf<'typing'>): void {
  const key = e.message_type === 'stream' ? conversationKey(e.stream_id, e.topic) : conversationKey(undefined, undefined, e.recipients.map((r) => r.user_id).sort((a, b) => a - b));
  const who = state.typing.get(key) ?? new Map<number, number>();
  if (e.op === 'start') who.set(e.sender.user_id, Date.now());
  else who.delete(e.sender.user_id);
  state.typing.set(key, who);
}

function subscription(state: State, e: EventOf<'subscription'>): void {
  if (e.op === 'add') for (const sub of e.subscriptions) state.subs.set(sub.stream_id, sub);
  if (e.op === 'remove') for (const sub of e.subscriptions) state.subs.delete(sub.stream_id);
  if (e.op === 'update') {
    const sub = state.subs.get(e.stream_id);
    if (sub) state.subs.set(e.stream_id, { ...sub, [e.property]: e.value });
  }
  if (e.op === 'peer_add' || e.op === 'peer_remove') {
    const change = e.op === 'peer_add' ? e.user_ids.length : -e.user_ids.length;
    for (const id of e.stream_ids) {
      const stream = state.streams.get(id);
      if (stream) state.streams.set(id, { ...stream, subscriber_count: Math.max(0, stream.subscriber_count + change) });
      const sub = state.subs.get(id);
      if (sub) state.subs.set(id, { ...sub, subscriber_count: Math.max(0, sub.subscriber_count + change) });
    }
  }
}

function stream(state: State, e: EventOf<'stream'>): void {
  if (e.op === 'create') for (const s of e.streams) state.streams.set(s.stream_id, s);
  else if (e.op === 'delete') {
    for (const id of e.stream_ids) {
      state.streams.delete(id);
      state.subs.delete(id);
    }
  } else {
    const change = e.property === 'description' ? { description: e.value, rendered_description: e.rendered_description } : { [e.property]: e.value };
    const s = state.streams.get(e.stream_id);
    if (s) state.streams.set(e.stream_id, { ...s, ...change });
    const sub = state.subs.get(e.stream_id);
    if (sub) state.subs.set(e.stream_id, { ...sub, ...change });
  }
}

function realmUser(state: State, e: EventOf<'realm_user'>): void {
  if (e.op === 'add') {
    state.users.set(e.person.user_id, e.person);
    return;
  }
  const id = e.person.user_id;
  const user = state.users.get(id) ?? state.inactiveUsers.get(id);
  if (!user) return;
  const next = { ...user, ...e.person };
  if ('role' in e.person) next.is_admin = e.person.role <= 200;
  if (id === state.me.user_id && 'full_name' in e.person) state.me.full_name = e.person.full_name;
  if (id === state.me.user_id && 'role' in e.person) state.me.is_admin = e.person.role <= 200;
  state.users.delete(id);
  state.inactiveUsers.delete(id);
  (next.is_active ? state.users : state.inactiveUsers).set(id, next);
}

export function applyEvent(state: State, e: ServerEvent, inOpenView: (m: Message) => boolean): void {
  switch (e.type) {
    case 'message':
      return newMessage(state, e, inOpenView);
    case 'update_message_flags':
      return updateFlags(state, e);
    case 'update_message':
      return updateMessage(state, e);
    case 'delete_message':
      for (const id of 'message_ids' in e ? e.message_ids : [e.message_id]) {
        state.messages.delete(id);
        state.unread.delete(id);
        state.starred.delete(id);
      }
      state.view.ids = state.view.ids.filter((id) => state.messages.has(id));
      return;
    case 'reaction': {
      const m = state.messages.get(e.message_id);
      if (!m) return;
      const reaction = { emoji_name: e.emoji_name, emoji_code: e.emoji_code, reaction_type: e.reaction_type, user_id: e.user_id };
      const same = (r: typeof reaction) => r.user_id === e.user_id && r.emoji_code === e.emoji_code && r.reaction_type === e.reaction_type;
      state.messages.set(m.id, { ...m, reactions: e.op === 'add' ? [...m.reactions.filter((r) => !same(r)), reaction] : m.reactions.filter((r) => !same(r)) });
      return;
    }
    case 'drafts':
      if (e.op === 'add') for (const d of e.drafts) state.drafts.set(d.id, d);
      if (e.op === 'update') state.drafts.set(e.draft.id, e.draft);
      if (e.op === 'remove') state.drafts.delete(e.draft_id);
      return;
    case 'typing':
      return typing(state, e);
    case 'subscription':
      return subscription(state, e);
    case 'stream':
      return stream(state, e);
    case 'default_streams':
      state.defaultStreams = e.default_streams;
      return;
    case 'realm_user':
      state.displayEpoch++;
      return realmUser(state, e);
    case 'realm':
      // The organization's name and description (PATCH /realm); other realm settings the client does not show.
      if (e.op === 'update' && e.property === 'name') state.realm.name = e.value;
      if (e.op === 'update' && e.property === 'description') state.realm.description = e.value;
      return;
    case 'realm_emoji':
      state.displayEpoch++;
      state.realmEmoji = new Map(Object.entries(e.realm_emoji));
      return;
    case 'alert_words':
      state.alertWords = e.alert_words;
      return;
    case 'realm_linkifiers':
      state.linkifiers = e.realm_linkifiers;
      return;
    case 'user_status': {
      const { type: _type, id: _id, user_id, away, ...fields } = e;
      const next = { ...state.userStatus.get(user_id), ...fields };
      if (away === true) next.away = true;
      else if (away === false) delete next.away;
      state.userStatus.set(user_id, next);
      return;
    }
    case 'navigation_view':
      if (e.op === 'add') state.navigationViews = [...state.navigationViews, e.navigation_view];
      if (e.op === 'update') state.navigationViews = state.navigationViews.map((v) => (v.fragment === e.fragment ? { ...v, ...e.data } : v));
      if (e.op === 'remove') state.navigationViews = state.navigationViews.filter((v) => v.fragment !== e.fragment);
      return;
    case 'presence':
      state.presence.set(e.user_id, presenceOf(e.presence));
      return;
    case 'user_settings':
      if (state.settings) state.settings = { ...state.settings, [e.property]: e.value };
      return;
    case 'user_topic': {
      const { type: _type, id: _id, ...topic } = e;
      state.userTopics.set(topicKey(topic.stream_id, topic.topic_name), topic);
      return;
    }
    case 'muted_users':
      state.mutedUsers = new Set(e.muted_users.map((m) => m.id));
      return;
    case 'invites_changed':
      state.invitesChanged += 1;
      return;
    case 'realm_bot':
      return applyBot(state, e);
  }
}

function applyBot(state: State, e: EventOf<'realm_bot'>): void {
  if (e.op === 'add') state.bots.set(e.bot.user_id, e.bot);
  else if (e.op === 'delete') state.bots.delete(e.bot.user_id);
  else {
    const bot = state.bots.get(e.bot.user_id);
    if (bot) state.bots.set(bot.user_id, { ...bot, ...e.bot });
  }
}
